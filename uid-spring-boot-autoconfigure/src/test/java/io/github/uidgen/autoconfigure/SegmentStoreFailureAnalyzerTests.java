package io.github.uidgen.autoconfigure;

import java.net.ConnectException;

import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.jdbc.SegmentTableMissingException;
import io.github.uidgen.segment.redis.RedisKeepsNothingException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SegmentStoreFailureAnalyzer}.
 */
class SegmentStoreFailureAnalyzerTests {

	private final MockEnvironment environment = new MockEnvironment();

	private final SegmentStoreFailureAnalyzer analyzer = new SegmentStoreFailureAnalyzer(this.environment);

	@Test
	void aMissingTableComesWithItsDdl() {
		FailureAnalysis analysis = this.analyzer
			.analyze(new SegmentTableMissingException("ORDER_SEGMENTS", "CREATE TABLE ORDER_SEGMENTS (...);", null));
		assertThat(analysis.getDescription()).contains("The table ORDER_SEGMENTS that hands out uid segments")
			.contains("Property: uid.segment.db.table")
			.contains("Value: ORDER_SEGMENTS");
		assertThat(analysis.getAction()).contains("CREATE TABLE ORDER_SEGMENTS (...);")
			.contains("uid.segment.db.initialize-schema=true");
	}

	@Test
	void aRedisThatKeepsNothingNamesTheSettingThatAcceptsIt() {
		FailureAnalysis analysis = this.analyzer
			.analyze(new RedisKeepsNothingException("Redis on port 6379", "appendonly no, save \"\""));
		assertThat(analysis.getDescription())
			.contains("refuses Redis on port 6379: it keeps nothing across a restart (appendonly no, save \"\")")
			.contains("hand out numbers that were handed out before")
			.contains("Property: uid.segment.redis.require-persistence")
			.contains("Value: true");
		assertThat(analysis.getAction()).contains("appendonly yes, appendfsync always")
			.contains("uid.segment.store to db")
			.contains("uid.segment.redis.require-persistence=false");
	}

	@Test
	void anUnreachableStoreNamesTheStoreAndWhatToCheck() {
		SegmentStoreException unreachable = new SegmentStoreException("Cannot reach the database",
				new ConnectException("Connection refused"));
		FailureAnalysis db = this.analyzer.analyze(unreachable);
		assertThat(db.getDescription()).contains("Cannot reach the database")
			.contains("Cause: java.net.ConnectException: Connection refused")
			.contains("Property: uid.segment.store")
			.contains("Value: db");
		assertThat(db.getAction()).contains("spring.datasource.url");
		this.environment.setProperty("uid.segment.store", "REDIS");
		FailureAnalysis redis = this.analyzer.analyze(unreachable);
		assertThat(redis.getDescription()).contains("Value: redis");
		assertThat(redis.getAction()).contains("spring.data.redis.host");
	}

}
