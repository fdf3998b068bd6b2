package io.github.uidgen.autoconfigure;

import java.net.ConnectException;

import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.SegmentStoreUnavailableException;
import io.github.uidgen.segment.jdbc.LeafAllocRowException;
import io.github.uidgen.segment.jdbc.LeafAllocTableException;
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
		SegmentStoreException unreachable = new SegmentStoreUnavailableException("Cannot reach the database",
				new ConnectException("Connection refused"));
		FailureAnalysis db = this.analyzer.analyze(unreachable);
		assertThat(db.getDescription()).contains("Cannot reach the database")
			.contains("Cause: java.net.ConnectException: Connection refused")
			.contains("Property: uid.segment.store")
			.contains("Value: db");
		assertThat(db.getAction()).contains("spring.datasource.url")
			.endsWith("A store that takes longer to come up at start can be waited for with "
					+ "uid.segment.store-wait-at-start.");
		this.environment.setProperty("uid.segment.store", "REDIS");
		FailureAnalysis redis = this.analyzer.analyze(unreachable);
		assertThat(redis.getDescription()).contains("Value: redis");
		assertThat(redis.getAction()).contains("spring.data.redis.host");
	}

	@Test
	void aStoreThatAnswersAndRefusesIsNotOneToWaitFor() {
		FailureAnalysis analysis = this.analyzer.analyze(new SegmentStoreException("The Redis key uid:segment:x could "
				+ "not be advanced: ERR value is not an integer or out of range", null));
		assertThat(analysis.getAction()).doesNotContain("uid.segment.store-wait-at-start");
	}

	@Test
	void leafsTableThatIsNotFitNamesTheTableProperty() {
		FailureAnalysis analysis = this.analyzer.analyze(new LeafAllocTableException("ids.leaf_alloc",
				"The table ids.leaf_alloc is not Leaf's leaf_alloc: it has no step column", null));
		assertThat(analysis.getDescription()).contains("it has no step column")
			.contains("Property: uid.segment.leaf.table")
			.contains("Value: ids.leaf_alloc");
		assertThat(analysis.getAction()).contains("uid.segment.leaf.table").contains("spring.datasource.url");
	}

	@Test
	void aLeafRowThatIsMissingNamesTheKeyAndTheStatement() {
		FailureAnalysis analysis = this.analyzer.analyze(new LeafAllocRowException("leaf_alloc", "order",
				"There is no row for biz_tag 'order' in leaf_alloc.", "INSERT INTO leaf_alloc (...) VALUES (...);"));
		assertThat(analysis.getDescription()).contains("There is no row for biz_tag 'order'")
			.contains("Property: uid.segment.key")
			.contains("Value: order");
		assertThat(analysis.getAction()).startsWith("Run INSERT INTO leaf_alloc (...) VALUES (...);");
	}

}
