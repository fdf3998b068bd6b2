package io.github.uidgen.samples.leaf;

/**
 * Thrown when a Leaf URL asks for a mode (segment or snowflake) this ID service is not configured to hand out.
 */
class LeafModeNotServedException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	LeafModeNotServedException(String message) {
		super(message);
	}

}
