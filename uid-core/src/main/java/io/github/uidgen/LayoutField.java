package io.github.uidgen;

/**
 * The settings that make up a {@link UidLayout}, so an {@link InvalidLayoutException} can say which to change.
 */
public enum LayoutField {

	/** The time unit. */
	TIME_UNIT,

	/** The epoch, the date time is counted from. */
	EPOCH,

	/** The number of time bits. */
	TIME_BITS,

	/** The number of worker-ID bits. */
	WORKER_BITS,

	/** The number of sequence bits. */
	SEQ_BITS

}
