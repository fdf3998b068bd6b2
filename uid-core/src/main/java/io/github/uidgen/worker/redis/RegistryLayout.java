package io.github.uidgen.worker.redis;

import java.util.List;

import io.github.uidgen.UidLayout;
import io.github.uidgen.redis.StandaloneRedis;
import io.github.uidgen.worker.RecordedLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The layout a namespace's worker IDs are used with, in a key of its own beside the registry's
 * ({@code {<keyPrefix>:<namespace>}:layout}, a string without expiry), written by a script ({@code layout.lua}) that
 * sets it only where it is absent and reads what is there otherwise: exactly one of two racing first starts writes
 * it, and the other compares with what won. A script, not {@code SET NX} and {@code GET}, so that it goes whichever
 * way the registry's scripts go (see {@link RedisWorkerIdAssigner#claimAhead(long, StandaloneRedis)}), in one round
 * trip. The claim script does not touch it.
 */
final class RegistryLayout {

	private static final Logger logger = LoggerFactory.getLogger(RedisWorkerIdAssigner.class);

	private final RegistryScripts scripts;

	private final String hashTag;

	private final String key;

	RegistryLayout(RegistryScripts scripts, String hashTag) {
		this.scripts = scripts;
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
		List<String> reply = this.scripts.recordLayout(this.key, own);
		if ("recorded".equals(reply.get(0))) {
			logger.info("uid layout recorded in Redis {}: {}", this.key, own);
			return;
		}
		RecordedLayout.check(reply.get(1), layout, "Redis " + this.hashTag, "the key " + this.key);
	}

}
