package io.github.uidgen.samples.leaf;

/**
 * Thrown when {@code /decodeSnowflakeId} is given something that is not an ID of the layout.
 */
class InvalidSnowflakeIdException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String value;

	InvalidSnowflakeIdException(String value, String message) {
		super(message);
		this.value = value;
	}

	String getValue() {
		return this.value;
	}

}
