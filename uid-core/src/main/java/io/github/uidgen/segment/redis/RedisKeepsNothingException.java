package io.github.uidgen.segment.redis;

import io.github.uidgen.segment.SegmentStoreException;

/**
 * Thrown by a {@link RedisSegmentStore} whose Redis keeps nothing across a restart (no append-only file, no RDB save
 * points): after that Redis restarts, every key's counter starts again at 0, and instances that start afterwards
 * would hand out numbers that were handed out before. Refused unless the store is built with
 * {@link RedisSegmentStore.Builder#requirePersistence(boolean) requirePersistence(false)}.
 */
public class RedisKeepsNothingException extends SegmentStoreException {

	private static final long serialVersionUID = 1L;

	private final String server;

	private final String settings;

	/**
	 * Creates the refusal.
	 * @param server which Redis, for example {@code Redis on port 6379}
	 * @param settings the settings that show it keeps nothing
	 */
	public RedisKeepsNothingException(String server, String settings) {
		super(server + " keeps nothing across a restart (" + settings + "): after it restarts, every segment key "
				+ "starts again at 1, and numbers handed out before would be handed out again. Turn on its "
				+ "append-only file (appendonly yes, appendfsync always), use the database segment store, or accept "
				+ "repeats after a Redis restart (tests, throwaway environments) with requirePersistence(false).");
		this.server = server;
		this.settings = settings;
	}

	/**
	 * Returns which Redis keeps nothing.
	 * @return for example {@code Redis on port 6379}
	 */
	public String getServer() {
		return this.server;
	}

	/**
	 * Returns the settings that show it.
	 * @return for example {@code appendonly no, save ""}
	 */
	public String getSettings() {
		return this.settings;
	}

}
