package io.github.uidgen.autoconfigure;

import java.util.Locale;

import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.SegmentStoreUnavailableException;
import io.github.uidgen.segment.jdbc.LeafAllocRowException;
import io.github.uidgen.segment.jdbc.LeafAllocTableException;
import io.github.uidgen.segment.jdbc.SegmentTableMissingException;
import io.github.uidgen.segment.redis.RedisKeepsNothingException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.Environment;

/**
 * Explains a segment store that could not hand out the first segment at start-up: its table is missing (with the
 * DDL that creates it), Leaf's table or the key's row in it is not fit (with the statement that fixes it), its Redis
 * keeps nothing across a restart, or the database or Redis cannot be reached (for longer than the start waits) or
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
		if (cause instanceof LeafAllocTableException table) {
			return new FailureAnalysis(describe(table.getMessage(), "uid.segment.leaf.table", table.getTable()),
					"Set uid.segment.leaf.table to the leaf_alloc table of the Leaf deployment (and "
							+ "spring.datasource.url to its database), or set uid.segment.store to db for uid's own "
							+ "table.",
					cause);
		}
		if (cause instanceof LeafAllocRowException row) {
			return new FailureAnalysis(describe(row.getMessage(), "uid.segment.key", row.getTag()),
					"Run " + row.getStatement() + " in the database of " + row.getTable()
							+ ", or set uid.segment.key to a biz_tag that has a row there.",
					cause);
		}
		String store = (this.environment != null)
				? this.environment.getProperty("uid.segment.store", "db").strip().toLowerCase(Locale.ROOT)
				: "db";
		Throwable root = NestedExceptionUtils.getMostSpecificCause(cause);
		String problem = "The uid segment store could not hand out a segment: " + cause.getMessage()
				+ ((root != cause) ? "\n\nCause: " + root : "");
		String action = "leaf".equals(store)
				? "Check that Leaf's database is running and reachable with spring.datasource.url, username and "
						+ "password."
				: "redis".equals(store)
				? "Check that Redis is running and reachable with spring.data.redis.host and port (or "
						+ "spring.data.redis.url) and the credentials set there, or set uid.segment.store to db."
				: "Check that the database is running and reachable with spring.datasource.url, username and "
						+ "password, or set uid.segment.store to redis.";
		if (cause instanceof SegmentStoreUnavailableException) {
			action += " A store that takes longer to come up at start can be waited for with "
					+ "uid.segment.store-wait-at-start.";
		}
		return new FailureAnalysis(describe(problem, "uid.segment.store", store), action, cause);
	}

}
