package io.github.uidgen.autoconfigure;

import java.time.Duration;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.impl.CachedUidGenerator;
import io.github.uidgen.impl.DefaultUidGenerator;
import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Tests for {@link InvalidSettingFailureAnalyzer}.
 */
class InvalidSettingFailureAnalyzerTests {

	private final MockEnvironment environment = new MockEnvironment();

	private final InvalidSettingFailureAnalyzer analyzer = new InvalidSettingFailureAnalyzer(this.environment);

	@Test
	void boostPowerNamesItsProperty() {
		FailureAnalysis analysis = analyze(() -> CachedUidGenerator.builder().boostPower(-1));
		assertThat(analysis.getDescription()).contains("uid.cached.boost-power")
			.contains("Property: uid.cached.boost-power")
			.contains("Value: -1");
		assertThat(analysis.getAction()).startsWith("Change uid.cached.boost-power:").contains("0 or more");
	}

	@Test
	void paddingFactorNamesItsProperty() {
		FailureAnalysis analysis = analyze(() -> CachedUidGenerator.builder().paddingFactor(100));
		assertThat(analysis.getDescription()).contains("Property: uid.cached.padding-factor").contains("Value: 100");
		assertThat(analysis.getAction()).contains("uid.cached.padding-factor").contains("1 to 99");
	}

	@Test
	void markDurationsNameTheirProperties() {
		assertThat(analyze(() -> DefaultUidGenerator.builder().markReservation(Duration.ZERO)).getDescription())
			.contains("Property: uid.mark.reservation")
			.contains("Value: PT0S");
		assertThat(analyze(() -> DefaultUidGenerator.builder().markTimeout(Duration.ofSeconds(-1))).getAction())
			.startsWith("Change uid.mark.timeout:");
		assertThat(analyze(() -> DefaultUidGenerator.builder().maxStartupWait(null)).getDescription())
			.contains("Property: uid.mark.max-startup-wait");
		assertThat(analyze(() -> DefaultUidGenerator.builder().clockBackwardsTolerance(Duration.ofMillis(-1)))
			.getDescription()).contains("Property: uid.clock-backwards-tolerance");
	}

	@Test
	void backupWorkerIdsNameTheirProperty() {
		FailureAnalysis analysis = analyze(() -> new io.github.uidgen.worker.StaticWorkerIdAssigner(5,
				java.nio.file.Path.of("worker.state"), java.util.List.of(5L)));
		assertThat(analysis.getDescription()).contains("Property: uid.worker.static.backup-ids").contains("Value: [5]");
		assertThat(analysis.getAction()).startsWith("Change uid.worker.static.backup-ids:").contains("distinct");
	}

	@Test
	void cachedDurationsNameTheirProperties() {
		assertThat(analyze(() -> CachedUidGenerator.builder().scheduleInterval(Duration.ofSeconds(-1)))
			.getDescription()).contains("Property: uid.cached.schedule-interval");
		assertThat(analyze(() -> CachedUidGenerator.builder().maxAhead(Duration.ofSeconds(-1))).getDescription())
			.contains("Property: uid.cached.max-ahead");
		assertThat(this.analyzer.property("takeTimeout")).isEqualTo("uid.cached.take-timeout");
	}

	@Test
	void leaseSettingsFollowTheChosenAssigner() {
		InvalidSettingException cause = new InvalidSettingException("leaseDuration", Duration.ZERO,
				"use a positive duration");
		this.environment.setProperty("uid.worker.assigner", "db");
		assertThat(this.analyzer.analyze(cause).getDescription()).contains("Property: uid.worker.db.lease-duration");
		this.environment.setProperty("uid.worker.assigner", "REDIS");
		assertThat(this.analyzer.analyze(cause).getDescription())
			.contains("Property: uid.worker.redis.lease-duration");
		assertThat(this.analyzer.property("heartbeatInterval")).isEqualTo("uid.worker.redis.heartbeat-interval");
	}

	@Test
	void segmentSettingsNameTheirProperties() {
		assertThat(this.analyzer.property("step")).isEqualTo("uid.segment.step");
		assertThat(this.analyzer.property("maxStep")).isEqualTo("uid.segment.max-step");
		assertThat(this.analyzer.property("targetInterval")).isEqualTo("uid.segment.target-interval");
		assertThat(this.analyzer.property("prefetchThreshold")).isEqualTo("uid.segment.prefetch-threshold");
		assertThat(this.analyzer.property("waitTimeout")).isEqualTo("uid.segment.wait-timeout");
		assertThat(this.analyzer.property("key")).isEqualTo("uid.segment.key");
		assertThat(this.analyzer.property("table")).isEqualTo("uid.segment.db.table");
		assertThat(this.analyzer.property("keyPrefix")).isEqualTo("uid.worker.redis.key-prefix");
		this.environment.setProperty("uid.generator", "Segment");
		assertThat(this.analyzer.property("keyPrefix")).isEqualTo("uid.segment.redis.key-prefix");
	}

	@Test
	void unknownSettingStillGetsAnAnalysis() {
		FailureAnalysis analysis = this.analyzer.analyze(new InvalidSettingException("something", 3, "use 4"));
		assertThat(analysis.getDescription()).contains("uid.something").contains("Value: 3");
		assertThat(analysis.getAction()).contains("use 4");
	}

	private FailureAnalysis analyze(Runnable setting) {
		InvalidSettingException cause = catchThrowableOfType(InvalidSettingException.class, setting::run);
		assertThat(cause).isNotNull();
		return this.analyzer.analyze(cause);
	}

}
