package io.github.uidgen.autoconfigure;

import java.util.Locale;

import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.jdbc.SegmentTableMissingException;
import io.github.uidgen.segment.redis.RedisKeepsNothingException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.Environment;

/**
 * Explains a segment store that could not hand out the first segment at start-up: its table is missing (with the
 * DDL that creates it), its Redis keeps nothing across a restart, or the database or Redis cannot be reached or
 * used.
 */
class SegmentStoreFailureAnalyzer extends UidFailureAnalyzer<SegmentStoreException> {

	private final Environment environment;

	SegmentStoreFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, SegmentStoreException cause) {
		if (cause instanceof SegmentTableMissingException missing) {
			String description = describe("The table " + missing.getTable() + " that hands out uid segments does "
					+ "not exist in the application's database.", "uid.segment.db.table", missing.getTable());
			String action = "Create the table with:\n\n" + missing.getDdl() + "\n\nor set "
					+ "uid.segment.db.initialize-schema=true to have it created at start, or point uid.segment.db.table "
					+ "at the existing table.";
			return new FailureAnalysis(description, action, cause);
		}
		if (cause instanceof RedisKeepsNothingException volatileRedis) {
			String description = describe("The uid segment store refuses " + volatileRedis.getServer() + ": it keeps "
					+ "nothing across a restart (" + volatileRedis.getSettings() + "), so after it restarts every "
					+ "segment key would start again at 1 and hand out numbers that were handed out before.",
					"uid.segment.redis.require-persistence", "true");
			String action = "Run that Redis with its append-only file on (appendonly yes, appendfsync always), or set "
					+ "uid.segment.store to db, or, where repeated numbers after a Redis restart do no harm (tests, "
					+ "throwaway environments), set uid.segment.redis.require-persistence=false.";
			return new FailureAnalysis(description, action, cause);
		}
		String store = (this.environment != null)
				? this.environment.getProperty("uid.segment.store", "db").strip().toLowerCase(Locale.ROOT)
				: "db";
		Throwable root = NestedExceptionUtils.getMostSpecificCause(cause);
		String problem = "The uid segment store could not hand out a segment: " + cause.getMessage()
				+ ((root != cause) ? "\n\nCause: " + root : "");
		String action = "redis".equals(store)
				? "Check that Redis is running and reachable with spring.data.redis.host and port (or "
						+ "spring.data.redis.url) and the credentials set there, or set uid.segment.store to db."
				: "Check that the database is running and reachable with spring.datasource.url, username and "
						+ "password, or set uid.segment.store to redis.";
		return new FailureAnalysis(describe(problem, "uid.segment.store", store), action, cause);
	}

}
