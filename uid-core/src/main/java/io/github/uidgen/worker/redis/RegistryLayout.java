package io.github.uidgen.worker.redis;

import io.github.uidgen.UidLayout;
import io.github.uidgen.worker.RecordedLayout;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The layout a namespace's worker IDs are used with, in a key of its own beside the registry's
 * ({@code {<keyPrefix>:<namespace>}:layout}, a string without expiry): {@code SET NX} lets exactly one of two racing
 * first starts write it, and the other reads what won. The claim script does not touch it.
 */
final class RegistryLayout {

	private static final Logger logger = LoggerFactory.getLogger(RedisWorkerIdAssigner.class);

	/** A record deleted between a refused write and the read is written again, a few times at most. */
	private static final int MAX_ATTEMPTS = 3;

	private final StringRedisTemplate redis;

	private final String hashTag;

	private final String key;

	RegistryLayout(RedisConnectionFactory connectionFactory, String hashTag) {
		this.redis = new StringRedisTemplate(connectionFactory);
		this.hashTag = hashTag;
		this.key = hashTag + ":layout";
	}

	String key() {
		return this.key;
	}

	/**
	 * Records the layout when the namespace has none, else refuses another.
	 * @param layout the generator's layout
	 * @throws io.github.uidgen.worker.LayoutMismatchException when the namespace records another layout
	 */
	void record(UidLayout layout) {
		String own = RecordedLayout.of(layout);
		try {
			for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
				if (Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(this.key, own))) {
					logger.info("uid layout recorded in Redis {}: {}", this.key, own);
					return;
				}
				String recorded = this.redis.opsForValue().get(this.key);
				if (recorded != null) {
					RecordedLayout.check(recorded, layout, "Redis " + this.hashTag, "the key " + this.key);
					return;
				}
			}
		}
		catch (DataAccessResourceFailureException | QueryTimeoutException ex) {
			throw new WorkerStoreUnavailableException("Cannot reach Redis, which hands out uid worker IDs ("
					+ ex.getMessage() + "); check that it runs and that the connection settings are right.", ex);
		}
		catch (DataAccessException ex) {
			throw new WorkerAssignmentException("Redis refused to record the uid layout in " + this.key + ": "
					+ ex.getMessage(), ex);
		}
		throw new WorkerAssignmentException("The uid layout key " + this.key + " was deleted " + MAX_ATTEMPTS
				+ " times while it was being recorded; is something deleting keys in Redis?");
	}

}
