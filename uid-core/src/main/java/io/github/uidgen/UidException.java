package io.github.uidgen;

/**
 * Base class of every exception uid throws, so callers can catch them as one.
 */
public class UidException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public UidException(String message) {
		super(message);
	}

	public UidException(String message, Throwable cause) {
		super(message, cause);
	}

}
