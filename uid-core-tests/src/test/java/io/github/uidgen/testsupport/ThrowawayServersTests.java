package io.github.uidgen.testsupport;

import java.nio.file.Path;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The throwaway servers the fault tests rely on do what those tests assume: a Redis restarted from an older
 * snapshot holds only what the snapshot held, one restarted empty holds nothing, a paused one answers nothing;
 * a MariaDB keeps its data across a stop and start, and a restored cold backup brings back the old data.
 */
class ThrowawayServersTests {

	@Test
	void redisRestartsEmptyOrFromAnOlderSnapshotOnTheSamePort(@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir.resolve("redis"))) {
			int port = redis.port();
			redis.cli("SET", "before", "1");
			Path older = redis.snapshot("older");
			redis.cli("SET", "after", "2");
			redis.restartFrom(older);
			assertThat(redis.port()).isEqualTo(port);
			assertThat(redis.cli("GET", "before")).isEqualTo("1");
			assertThat(redis.cli("EXISTS", "after")).isEqualTo("0");
			redis.restartEmpty();
			assertThat(redis.cli("DBSIZE")).isEqualTo("0");
		}
	}

	@Test
	void pausedRedisAnswersNothingUntilResumed(@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir.resolve("redis"))) {
			redis.process().pause();
			assertThat(redis.cli("-t", "1", "PING")).isNotEqualTo("PONG");
			redis.process().resume();
			assertThat(redis.cli("PING")).isEqualTo("PONG");
		}
	}

	@Test
	void mariaDbKeepsDataAcrossRestartsAndRestoresAColdBackup(@TempDir Path dir) {
		try (ThrowawayMariaDb db = ThrowawayMariaDb.start(dir.resolve("mariadb"))) {
			db.execute("CREATE TABLE t (v INT)");
			db.execute("INSERT INTO t VALUES (1)");
			Path backup = db.coldBackup("one-row");
			db.execute("INSERT INTO t VALUES (2)");
			db.stop();
			assertThat(db.process().isAlive()).isFalse();
			assertThat(db.answers()).isFalse();
			assertThatIllegalStateException().isThrownBy(() -> db.execute("SELECT 1"));
			db.start();
			assertThat(db.answers()).isTrue();
			assertThat(values(db)).containsExactly(1L, 2L);
			db.restore(backup);
			assertThat(values(db)).containsExactly(1L);
		}
	}

	private static List<Long> values(ThrowawayMariaDb db) {
		try (HikariDataSource dataSource = db.dataSource()) {
			return TestDatabases.query(dataSource, "SELECT v FROM t ORDER BY v")
				.stream()
				.map((row) -> ((Number) row.get(0)).longValue())
				.toList();
		}
	}

}
