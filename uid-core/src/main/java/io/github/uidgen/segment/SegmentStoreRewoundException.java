package io.github.uidgen.segment;

/**
 * Thrown when a store hands out a range that does not lie above a range it handed to this generator before: the
 * store went backwards (Redis lost its data or was restored from an old snapshot, a row was edited by hand). The
 * range is refused and the generator claims nothing more from the store: other instances' claims may have been
 * lost too, so no later claim can be trusted not to repeat theirs. Instances that start afresh on the rewound store
 * cannot know, which is why the store must keep its data (see {@code docs/segment.md}).
 */
public class SegmentStoreRewoundException extends SegmentStoreException {

	private static final long serialVersionUID = 1L;

	private final String key;

	private final long highestClaimed;

	private final SegmentRange refused;

	public SegmentStoreRewoundException(String key, String store, long highestClaimed, SegmentRange refused) {
		super("The " + store + " segment store went backwards for key '" + key + "': it handed out " + refused
				+ " after this generator had already claimed up to " + highestClaimed + ". The store has lost claims "
				+ "(data loss, a restore from an old backup, an edit by hand), so this generator claims nothing more "
				+ "from it and stops once the numbers it holds are used up. Set the key's counter above every number "
				+ "any instance may have handed out (at least " + highestClaimed + " plus the largest step of every "
				+ "instance), make the store keep its data, then restart the instances.");
		this.key = key;
		this.highestClaimed = highestClaimed;
		this.refused = refused;
	}

	public String getKey() {
		return this.key;
	}

	/**
	 * Returns the last number of the highest range this generator claimed before.
	 * @return the number
	 */
	public long getHighestClaimed() {
		return this.highestClaimed;
	}

	/**
	 * Returns the range that was refused.
	 * @return the range
	 */
	public SegmentRange getRefused() {
		return this.refused;
	}

}
