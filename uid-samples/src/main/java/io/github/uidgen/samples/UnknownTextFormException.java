package io.github.uidgen.samples;

import java.util.Set;

/**
 * Thrown when a client asks for IDs in a text form the service does not have (or cannot offer without a setting,
 * such as the opaque form without a key).
 */
class UnknownTextFormException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String format;

	private final Set<String> available;

	UnknownTextFormException(String format, String reason, Set<String> available) {
		super(reason);
		this.format = format;
		this.available = available;
	}

	String getFormat() {
		return this.format;
	}

	Set<String> getAvailable() {
		return this.available;
	}

}
