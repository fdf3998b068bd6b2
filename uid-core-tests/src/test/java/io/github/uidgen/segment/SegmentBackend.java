package io.github.uidgen.segment;

import java.util.Set;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.segment.jdbc.JdbcSegmentStore;
import io.github.uidgen.segment.redis.RedisSegmentStore;
import io.github.uidgen.testsupport.TestDatabases;
import io.github.uidgen.testsupport.TestDatabases.Database;
import io.github.uidgen.testsupport.TestRedis;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The shared servers a segment store runs on in tests, each opened with a table or key prefix of its own so that
 * tests never meet.
 */
enum SegmentBackend {

	MARIADB, POSTGRESQL, REDIS;

	/**
	 * Opens the backend on a fresh table or key prefix.
	 * @return the open backend; close it to drop what the test left
	 */
	Open open() {
		return open(fresh());
	}

	/**
	 * Returns a new table name or key prefix.
	 * @return the name
	 */
	String fresh() {
		return (this == REDIS) ? "uid-test-" + TestRedis.uniqueNamespace("seg") : TestDatabases.uniqueTable("uid_seg");
	}

	/**
	 * Opens the backend on a given table or key prefix, as another instance of the same application would.
	 * @param name the table or key prefix
	 * @return the open backend
	 */
	Open open(String name) {
		if (this == REDIS) {
			LettuceConnectionFactory factory = TestRedis.connectionFactory();
			// The shared Redis of the tests keeps nothing across a restart; these tests never restart it.
			RedisSegmentStore store = RedisSegmentStore.builder(factory)
				.keyPrefix(name)
				.requirePersistence(false)
				.build();
			return new Open(this, name, store) {

				@Override
				void setCounter(String key, long value) {
					new StringRedisTemplate(factory).opsForValue().set(name + ":" + key, Long.toString(value));
				}

				@Override
				public void close() {
					StringRedisTemplate redis = new StringRedisTemplate(factory);
					Set<String> keys = redis.keys(name + ":*");
					if (keys != null && !keys.isEmpty()) {
						redis.delete(keys);
					}
					factory.destroy();
				}

			};
		}
		Database database = (this == MARIADB) ? Database.MARIADB : Database.POSTGRESQL;
		HikariDataSource dataSource = database.open();
		return new Open(this, name, JdbcSegmentStore.builder(dataSource).table(name).initializeSchema(true).build()) {

			@Override
			void setCounter(String key, long value) {
				TestDatabases.execute(dataSource, "UPDATE " + name + " SET max_id = " + value + " WHERE segment_key = '"
						+ key + "'");
			}

			@Override
			public void close() {
				TestDatabases.dropTable(dataSource, name);
				dataSource.close();
			}

		};
	}

	/** One backend opened for a test: its store, and the hooks the test needs on its data. */
	abstract static class Open implements AutoCloseable {

		final SegmentBackend backend;

		final String name;

		final SegmentStore store;

		Open(SegmentBackend backend, String name, SegmentStore store) {
			this.backend = backend;
			this.name = name;
			this.store = store;
		}

		/** Sets a key's counter by hand, as an operator (or a store that lost data) would; the key must exist. */
		abstract void setCounter(String key, long value);

		@Override
		public abstract void close();

		@Override
		public String toString() {
			return this.backend.name().toLowerCase();
		}

	}

}
