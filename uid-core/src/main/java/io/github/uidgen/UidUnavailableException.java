package io.github.uidgen;

/**
 * Thrown when no ID could be handed out in time, with the reason (for example the high-water mark could not be
 * recorded, or the ring stayed empty past its wait limit).
 */
public class UidUnavailableException extends UidException {

	private static final long serialVersionUID = 1L;

	public UidUnavailableException(String message) {
		super(message);
	}

	public UidUnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

}
