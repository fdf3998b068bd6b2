package io.github.uidgen;

/**
 * The settings that make up a {@link UidLayout}, and the data-center ID it checks, so an
 * {@link InvalidLayoutException} can say which to change.
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
	SEQ_BITS,

	/** The number of data-center bits, taken from the worker bits. */
	DATACENTER_BITS,

	/** The data-center ID a generator writes into the data-center bits. */
	DATACENTER_ID

}
