package io.github.uidgen;

/**
 * Thrown when an ID cannot be decoded with a layout: it is negative or its time lies beyond the layout.
 */
public class InvalidUidException extends UidException {

	private static final long serialVersionUID = 1L;

	public InvalidUidException(String message) {
		super(message);
	}

}
