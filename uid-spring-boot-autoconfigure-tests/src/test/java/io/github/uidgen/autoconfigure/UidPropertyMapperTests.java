package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.time.LocalDate;

import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import io.github.uidgen.worker.zookeeper.ZookeeperWorkerIdAssigner;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Tests for {@link UidPropertyMapper}: a value a core builder refuses is reported under the property it came from,
 * with its value and the fix, through {@link UidPropertyFailureAnalyzer}.
 */
class UidPropertyMapperTests {

	private final UidPropertyFailureAnalyzer analyzer = new UidPropertyFailureAnalyzer();

	@Test
	void boostPowerNamesItsProperty() {
		FailureAnalysis analysis = analyze(
				() -> UidPropertyMapper.map("uid.cached.boost-power", -1, CachedUidGenerator.builder()::boostPower));
		assertThat(analysis.getDescription()).contains("uid.cached.boost-power")
			.contains("Property: uid.cached.boost-power")
			.contains("Value: -1");
		assertThat(analysis.getAction()).startsWith("Change uid.cached.boost-power:").contains("0 or more");
	}

	@Test
	void boostPowerTooLargeForTheLayoutSetBeforeNamesTheBoostPower() {
		CachedUidGenerator.Builder builder = CachedUidGenerator.builder().layout(UidLayout.defaults());
		FailureAnalysis analysis = analyze(() -> UidPropertyMapper.map("uid.cached.boost-power", 20,
				builder::boostPower));
		assertThat(analysis.getDescription()).contains("Property: uid.cached.boost-power").contains("Value: 20");
		assertThat(analysis.getAction()).contains("lower the boost power or the sequence bits");
	}

	@Test
	void paddingFactorNamesItsProperty() {
		FailureAnalysis analysis = analyze(() -> UidPropertyMapper.map("uid.cached.padding-factor", 100,
				CachedUidGenerator.builder()::paddingFactor));
		assertThat(analysis.getDescription()).contains("Property: uid.cached.padding-factor").contains("Value: 100");
		assertThat(analysis.getAction()).contains("uid.cached.padding-factor").contains("1 to 99");
	}

	@Test
	void durationsNameTheirProperties() {
		DefaultUidGenerator.Builder builder = DefaultUidGenerator.builder();
		assertThat(analyze(() -> UidPropertyMapper.map("uid.mark.reservation", Duration.ZERO,
				builder::markReservation))
			.getDescription()).contains("Property: uid.mark.reservation").contains("Value: PT0S");
		assertThat(analyze(() -> UidPropertyMapper.map("uid.mark.max-startup-wait", null, builder::maxStartupWait))
			.getDescription()).contains("Property: uid.mark.max-startup-wait").contains("Value: (not set)");
		assertThat(analyze(() -> UidPropertyMapper.map("uid.cached.max-ahead", Duration.ofSeconds(-1),
				CachedUidGenerator.builder()::maxAhead))
			.getAction()).startsWith("Change uid.cached.max-ahead:");
	}

	@Test
	void heartbeatNotShorterThanTheLeaseSetBeforeNamesTheHeartbeat() {
		RedisWorkerIdAssigner.Builder builder = RedisWorkerIdAssigner.builder(new LettuceConnectionFactory())
			.leaseDuration(Duration.ofSeconds(10));
		FailureAnalysis analysis = analyze(() -> UidPropertyMapper.map("uid.worker.redis.heartbeat-interval",
				Duration.ofSeconds(10), builder::heartbeatInterval));
		assertThat(analysis.getDescription()).contains("Property: uid.worker.redis.heartbeat-interval")
			.contains("Value: PT10S");
		assertThat(analysis.getAction()).contains("shorter than the lease duration (PT10S)");
	}

	@Test
	void maxStepBelowTheStepSetBeforeNamesTheMaxStep() {
		SegmentUidGenerator.Builder builder = SegmentUidGenerator.builder((key, size) -> new SegmentRange(0, size - 1))
			.step(10);
		FailureAnalysis analysis = analyze(() -> UidPropertyMapper.map("uid.segment.max-step", 5L, builder::maxStep));
		assertThat(analysis.getDescription()).contains("Property: uid.segment.max-step").contains("Value: 5");
		assertThat(analysis.getAction()).contains("from the step (10)");
	}

	@Test
	void zookeeperInstanceIdOnTwoLinesNamesTheInstanceId() {
		ZookeeperWorkerIdAssigner.Builder builder = ZookeeperWorkerIdAssigner
			.builder(CuratorFrameworkFactory.newClient("127.0.0.1:1", new RetryOneTime(1)));
		FailureAnalysis analysis = analyze(() -> UidPropertyMapper.map("uid.worker.instance-id", "a\nb",
				builder::instanceId));
		assertThat(analysis.getDescription()).contains("Property: uid.worker.instance-id");
		assertThat(analysis.getAction()).contains("without line breaks");
	}

	@Test
	void bitsThatDoNotFitNameAllThreeBitProperties() {
		FailureAnalysis analysis = analyzeLayout(UidTimeUnit.MILLISECONDS, UidLayout.DEFAULT_EPOCH, 42, 10, 12);
		assertThat(analysis.getDescription()).contains("Property: uid.time-bits, uid.worker-bits, uid.seq-bits")
			.contains("Value: 42 + 10 + 12 = 64")
			.contains("63 bits");
		assertThat(analysis.getAction()).startsWith("Change uid.time-bits, uid.worker-bits, uid.seq-bits:")
			.contains("63 or less");
	}

	@Test
	void fieldWithoutBitsNamesItsProperty() {
		FailureAnalysis analysis = analyzeLayout(UidTimeUnit.MILLISECONDS, UidLayout.DEFAULT_EPOCH, 41, 0, 12);
		assertThat(analysis.getDescription()).contains("Property: uid.worker-bits").contains("Value: 0");
		assertThat(analysis.getAction()).startsWith("Change uid.worker-bits:");
	}

	@Test
	void epochInTheFutureNamesTheEpoch() {
		FailureAnalysis analysis = analyzeLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2999, 1, 1), 41, 10, 12);
		assertThat(analysis.getDescription()).contains("future")
			.contains("Property: uid.epoch")
			.contains("Value: 2999-01-01");
		assertThat(analysis.getAction()).startsWith("Change uid.epoch:");
	}

	@Test
	void expiredLayoutNamesTimeBitsAndEpoch() {
		// Baidu's default layout: 28 bits of seconds from 2016-05-20 ran out on 2024-11-20.
		FailureAnalysis analysis = analyzeLayout(UidTimeUnit.SECONDS, LocalDate.of(2016, 5, 20), 28, 22, 13);
		assertThat(analysis.getDescription()).contains("ran out on 2024-11-2")
			.contains("Property: uid.time-bits, uid.epoch")
			.contains("Value: 28 time bits of seconds from 2016-05-20");
		assertThat(analysis.getAction()).contains("more time bits or a later epoch");
	}

	@Test
	void isFoundInsideABeanCreationFailure() {
		UidPropertyException cause = catchThrowableOfType(UidPropertyException.class,
				() -> UidPropertyMapper.layout(properties(UidTimeUnit.SECONDS, UidLayout.DEFAULT_EPOCH, 41, 10, -1),
						System.currentTimeMillis()));
		FailureAnalysis analysis = this.analyzer.analyze(new BeanCreationException("uidGenerator", "failed", cause));
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).contains("Property: uid.seq-bits");
		assertThat(analysis.getCause()).isSameAs(cause);
	}

	@Test
	void aValueTheBuilderTakesIsSet() {
		CachedUidGenerator.Builder builder = CachedUidGenerator.builder();
		UidPropertyMapper.map("uid.cached.max-ahead", Duration.ofSeconds(2), builder::maxAhead);
		assertThat(UidPropertyMapper.apply("uid.segment.key", "orders", String::length)).isEqualTo(6);
	}

	private FailureAnalysis analyzeLayout(UidTimeUnit unit, LocalDate epoch, int timeBits, int workerBits,
			int seqBits) {
		return analyze(() -> UidPropertyMapper.layout(properties(unit, epoch, timeBits, workerBits, seqBits),
				System.currentTimeMillis()));
	}

	private static UidProperties properties(UidTimeUnit unit, LocalDate epoch, int timeBits, int workerBits,
			int seqBits) {
		UidProperties properties = new UidProperties();
		properties.setTimeUnit(unit);
		properties.setEpoch(epoch);
		properties.setTimeBits(timeBits);
		properties.setWorkerBits(workerBits);
		properties.setSeqBits(seqBits);
		return properties;
	}

	private FailureAnalysis analyze(Runnable mapping) {
		UidPropertyException cause = catchThrowableOfType(UidPropertyException.class, mapping::run);
		assertThat(cause).isNotNull();
		return this.analyzer.analyze(cause);
	}

}
