package io.github.uidgen.worker;

/**
 * Thrown at start when a worker store records another layout than the generator's: the same worker ID would stand
 * for a different part of an ID, and the instances' IDs would overlap. The message names both layouts and the fix.
 */
public class LayoutMismatchException extends WorkerAssignmentException {

	private static final long serialVersionUID = 1L;

	private final String store;

	private final String recordedLayout;

	private final String layout;

	private final String differences;

	/**
	 * Creates the exception.
	 * @param store the store, for example {@code Redis {uid:default}}
	 * @param record where the record lies in the store
	 * @param recordedLayout the layout the store records, as {@link RecordedLayout#of} writes it
	 * @param layout this instance's layout, in the same form
	 * @param differences the settings that differ, with both values
	 */
	public LayoutMismatchException(String store, String record, String recordedLayout, String layout,
			String differences) {
		super("The uid worker store " + store + " records the layout [" + recordedLayout + "], but this instance's "
				+ "layout is [" + layout + "]; they differ in " + differences + ". Instances on one store must "
				+ "compose IDs with one layout, or their IDs overlap (data center 1, worker 44 with 2 data-center bits "
				+ "is worker 300 without them). Set the layout of this instance to the recorded one (uid.epoch, "
				+ "uid.time-unit, uid.time-bits, uid.worker-bits, uid.datacenter-bits, uid.seq-bits; UidLayout in "
				+ "code). To change the layout on purpose: stop every instance on the store, wait until their IDs lie "
				+ "in the past (uid.cached.max-ahead plus uid.mark.reservation), delete the record (" + record
				+ ") and start them with the new layout.");
		this.store = store;
		this.recordedLayout = recordedLayout;
		this.layout = layout;
		this.differences = differences;
	}

	/**
	 * Returns the store that records the other layout.
	 * @return the store, as the message names it
	 */
	public String getStore() {
		return this.store;
	}

	/**
	 * Returns the layout the store records.
	 * @return the record
	 */
	public String getRecordedLayout() {
		return this.recordedLayout;
	}

	/**
	 * Returns this instance's layout in the record's form.
	 * @return the layout
	 */
	public String getLayout() {
		return this.layout;
	}

	/**
	 * Returns the settings that differ.
	 * @return each with the recorded value and this instance's
	 */
	public String getDifferences() {
		return this.differences;
	}

}
