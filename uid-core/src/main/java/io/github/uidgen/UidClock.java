package io.github.uidgen;

/**
 * The wall clock as the generators see it, so tests can step it backwards and forwards.
 */
@FunctionalInterface
public interface UidClock {

	/** The system clock. */
	UidClock SYSTEM = System::currentTimeMillis;

	/**
	 * Returns the current time.
	 * @return milliseconds since 1970-01-01T00:00:00Z
	 */
	long currentTimeMillis();

}
