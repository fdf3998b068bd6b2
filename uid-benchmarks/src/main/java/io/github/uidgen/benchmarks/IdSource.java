package io.github.uidgen.benchmarks;

/**
 * One generator under test, reduced to "give me the next ID" so every contender runs through the same harness.
 */
public interface IdSource extends AutoCloseable {

	/**
	 * Returns the next ID, exactly as the generator's own API does: a generator that throws is allowed to throw.
	 * @return an ID
	 */
	long nextId();

	/**
	 * Stops the generator's threads.
	 */
	@Override
	void close();

}
