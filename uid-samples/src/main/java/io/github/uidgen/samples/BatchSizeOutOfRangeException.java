package io.github.uidgen.samples;

/**
 * Thrown when a client asks for a batch of IDs smaller or larger than the service allows.
 */
class BatchSizeOutOfRangeException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final int size;

	private final int min;

	private final int max;

	BatchSizeOutOfRangeException(int size, int min, int max) {
		super("Batch size " + size + " is outside the allowed range " + min + ".." + max);
		this.size = size;
		this.min = min;
		this.max = max;
	}

	int getSize() {
		return this.size;
	}

	int getMin() {
		return this.min;
	}

	int getMax() {
		return this.max;
	}

}
