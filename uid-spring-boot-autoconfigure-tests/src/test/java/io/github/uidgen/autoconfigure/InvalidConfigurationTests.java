package io.github.uidgen.autoconfigure;

import java.nio.file.Path;
import java.time.Instant;
import java.util.function.Consumer;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.jackson.UidJacksonAutoConfiguration;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every invalid {@code uid.*} configuration ends start-up with a failure analysis that names the property, the
 * value and the fix, end to end: the auto-configuration fails and the analyzers registered in
 * {@code spring.factories} explain it.
 */
class InvalidConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StaticWorkerIdAssignerAutoConfiguration.class,
				JdbcWorkerIdAssignerAutoConfiguration.class, RedisWorkerIdAssignerAutoConfiguration.class,
				UidGeneratorAutoConfiguration.class));

	private final ApplicationContextRunner withAssigner = this.contextRunner.withBean(WorkerIdAssigner.class,
			() -> new FixedWorkerIdAssigner(3));

	@Test
	void bitsThatDoNotFit() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.time-bits, uid.worker-bits, uid.seq-bits")
				.contains("Value: 42 + 10 + 12 = 64");
			assertThat(analysis.getAction()).contains("Change uid.time-bits, uid.worker-bits, uid.seq-bits");
		}, "uid.time-bits=42");
	}

	@Test
	void fieldWithoutBits() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.seq-bits").contains("Value: 0");
			assertThat(analysis.getAction()).contains("Change uid.seq-bits");
		}, "uid.seq-bits=0");
	}

	@Test
	void epochInTheFuture() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.epoch").contains("Value: 2999-01-01");
			assertThat(analysis.getAction()).contains("Change uid.epoch");
		}, "uid.epoch=2999-01-01");
	}

	@Test
	void epochThatIsNotADate() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("uid.epoch").contains("2025-02-30");
			assertThat(analysis.getAction()).contains("Update your application's configuration");
		}, "uid.epoch=2025-02-30");
	}

	@Test
	void expiredLayout() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("ran out on 2024-11-2")
				.contains("Property: uid.time-bits, uid.epoch")
				.contains("Value: 28 time bits of seconds from 2016-05-20");
			assertThat(analysis.getAction()).contains("uid.time-bits, uid.epoch");
		}, "uid.time-unit=seconds", "uid.epoch=2016-05-20", "uid.time-bits=28", "uid.worker-bits=22",
				"uid.seq-bits=13");
	}

	@Test
	void unknownGenerator() {
		assertFailure(this.withAssigner,
				(analysis) -> assertUnknownValue(analysis, "uid.generator", "turbo", "DEFAULT", "CACHED", "SEGMENT"),
				"uid.generator=turbo");
	}

	@Test
	void unknownGeneratorWhenTheApplicationsOwnBeansNeedOneFirst() {
		// An application's beans are created before the auto-configured ones: the typo must still be reported as
		// such, not as "a bean of type UidGenerator could not be found".
		assertFailure(this.withAssigner.withUserConfiguration(OrderService.class),
				(analysis) -> assertUnknownValue(analysis, "uid.generator", "cahced", "DEFAULT", "CACHED", "SEGMENT"),
				"uid.generator=cahced");
	}

	@Test
	void registryLossMarginShorterThanHowFarAheadAGeneratorMayRecordItsMark() {
		ApplicationContextRunner withRedis = this.contextRunner.withBean(RedisConnectionFactory.class,
				LettuceConnectionFactory::new);
		assertFailure(withRedis, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.redis.registry-loss-margin")
				.contains("Value: 5s")
				.contains("uid.cached.max-ahead (10s) + uid.mark.reservation (3s) = 13s");
			assertThat(analysis.getAction()).contains("at least 13s plus your clock skew");
		}, "uid.worker.assigner=redis", "uid.generator=cached", "uid.worker.redis.registry-loss-margin=5s");
	}

	@Test
	void heartbeatNotShorterThanTheLease() {
		ApplicationContextRunner withRedis = this.contextRunner.withBean(RedisConnectionFactory.class,
				LettuceConnectionFactory::new);
		assertFailure(withRedis, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.redis.heartbeat-interval")
				.contains("Value: PT10S");
			assertThat(analysis.getAction()).startsWith("Change uid.worker.redis.heartbeat-interval:")
				.contains("shorter than the lease duration");
		}, "uid.worker.assigner=redis", "uid.worker.redis.lease-duration=10s",
				"uid.worker.redis.heartbeat-interval=10s");
	}

	@Test
	void claimHistoryOutOfRange() {
		ApplicationContextRunner withRedis = this.contextRunner.withBean(RedisConnectionFactory.class,
				LettuceConnectionFactory::new);
		assertFailure(withRedis, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.claim-history").contains("Value: 0");
			assertThat(analysis.getAction()).startsWith("Change uid.worker.claim-history:")
				.contains("from 1 to 10000 claims per worker ID");
		}, "uid.worker.assigner=redis", "uid.worker.claim-history=0");
	}

	@Test
	void backupWorkerIdThatDoesNotFitTheLayout(@TempDir Path stateDir) {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.static.backup-ids")
				.contains("Value: 6,2000")
				.contains("Backup worker ID 2000")
				.contains("0 to 1023")
				.doesNotContain("uid.worker.id 2000");
			assertThat(analysis.getAction()).contains("uid.worker.static.backup-ids").contains("0 to 1023");
		}, "uid.worker.id=5", "uid.worker.static.backup-ids=6,2000",
				"uid.worker.static.state-file=" + stateDir.resolve("worker-5.state"));
	}

	@Test
	void backupWorkerIdsWithALeaseAssigner() {
		ApplicationContextRunner withRedis = this.contextRunner
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=6379",
					"uid.worker.redis.key-prefix=" + TestRedis.uniqueNamespace("uid-backup"),
					"uid.worker.redis.registry-loss-margin=300ms", "uid.mark.reservation=100ms");
		assertFailure(withRedis, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.static.backup-ids")
				.contains("Value: 6,7")
				.contains("redis worker-ID assigner");
			assertThat(analysis.getAction()).contains("Remove uid.worker.static.backup-ids");
		}, "uid.worker.assigner=redis", "uid.worker.static.backup-ids=6,7");
	}

	@Test
	void backupWorkerIdsWithTheCachedGenerator(@TempDir Path stateDir) {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.static.backup-ids")
				.contains("Value: 6")
				.contains("uid.generator is cached");
			assertThat(analysis.getAction()).contains("Remove uid.worker.static.backup-ids")
				.contains("uid.generator=default");
		}, "uid.worker.id=5", "uid.generator=cached", "uid.worker.static.backup-ids=6",
				"uid.worker.static.state-file=" + stateDir.resolve("worker-5.state"));
	}

	@Test
	void backupWorkerIdsWhileSwitchingIsOff(@TempDir Path stateDir) {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.static.backup-ids")
				.contains("Value: 6")
				.contains("uid.clock-backwards-switch-worker is false");
			assertThat(analysis.getAction()).contains("Remove uid.worker.static.backup-ids")
				.contains("uid.clock-backwards-switch-worker=true");
		}, "uid.worker.id=5", "uid.clock-backwards-switch-worker=false", "uid.worker.static.backup-ids=6",
				"uid.worker.static.state-file=" + stateDir.resolve("worker-5.state"));
	}

	@Test
	void jacksonSwitchThatIsNotABoolean() {
		ApplicationContextRunner jackson = new ApplicationContextRunner().withConfiguration(
				AutoConfigurations.of(UidJacksonAutoConfiguration.class, JacksonAutoConfiguration.class));
		assertFailure(jackson, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.jackson.write-longs-as-strings")
				.contains("Value: \"yes-please\"")
				.contains("boolean");
			assertThat(analysis.getAction()).contains("Update your application's configuration");
		}, "uid.jackson.write-longs-as-strings=yes-please");
	}

	@Test
	void jacksonSwitchWithoutUidJackson() {
		// uid-jackson is an optional dependency: an application without it has no module to write longs as strings.
		ApplicationContextRunner withoutUidJackson = this.withAssigner
			.withConfiguration(AutoConfigurations.of(UidJacksonAutoConfiguration.class, JacksonAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("io.github.uidgen.jackson"));
		assertFailure(withoutUidJackson, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.jackson.write-longs-as-strings")
				.contains("Value: true")
				.contains("uid-jackson is not on the class path");
			assertThat(analysis.getAction()).contains("io.github.uidgen:uid-jackson")
				.contains("remove uid.jackson.write-longs-as-strings");
		}, "uid.jackson.write-longs-as-strings=true");
		assertFailure(withoutUidJackson, (analysis) -> assertThat(analysis.getDescription())
			.contains("Property: uid.jackson.write-longs-as-strings")
			.contains("Value: \"yes-please\""), "uid.jackson.write-longs-as-strings=yes-please");
		withoutUidJackson.withPropertyValues("uid.jackson.write-longs-as-strings=false")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void unknownAssigner() {
		assertFailure(this.contextRunner, (analysis) -> assertUnknownValue(analysis, "uid.worker.assigner", "consul",
				"STATIC", "DB", "REDIS", "ZOOKEEPER"), "uid.worker.assigner=consul");
	}

	@Test
	void unknownTakePolicy() {
		assertFailure(this.withAssigner,
				(analysis) -> assertUnknownValue(analysis, "uid.cached.take-policy", "block", "WAIT", "FAIL_FAST"),
				"uid.generator=cached", "uid.cached.take-policy=block");
	}

	@Test
	void unknownTimeUnit() {
		assertFailure(this.withAssigner,
				(analysis) -> assertUnknownValue(analysis, "uid.time-unit", "minutes", "SECONDS", "MILLISECONDS"),
				"uid.time-unit=minutes");
	}

	@Test
	void negativeBoostPower() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.cached.boost-power").contains("Value: -1");
			assertThat(analysis.getAction()).contains("Change uid.cached.boost-power");
		}, "uid.generator=cached", "uid.cached.boost-power=-1");
	}

	@Test
	void boostPowerTooLargeForTheSequenceBits() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.cached.boost-power").contains("Value: 20");
			assertThat(analysis.getAction()).contains("lower the boost power or the sequence bits");
		}, "uid.generator=cached", "uid.cached.boost-power=20");
	}

	@Test
	void paddingFactorOutOfRange() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.cached.padding-factor")
				.contains("Value: 0");
			assertThat(analysis.getAction()).contains("1 to 99");
		}, "uid.generator=cached", "uid.cached.padding-factor=0");
	}

	@Test
	void takeTimeoutNotPositive() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.cached.take-timeout")
				.contains("Value: PT0S");
			assertThat(analysis.getAction()).contains("positive duration");
		}, "uid.generator=cached", "uid.cached.take-timeout=0s");
	}

	@Test
	void markReservationNotPositive() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.mark.reservation");
			assertThat(analysis.getAction()).contains("Change uid.mark.reservation");
		}, "uid.mark.reservation=0ms");
	}

	@Test
	void assignerNotChosen() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("No worker-ID assigner is chosen")
				.contains("Property: uid.worker.assigner")
				.contains("Value: (not set)");
			assertThat(analysis.getAction()).contains("Set uid.worker.assigner to db, redis or zookeeper")
				.contains("uid.worker.id");
		});
	}

	@Test
	void dbAssignerWithoutSpringJdbc() {
		assertFailure(this.contextRunner.withClassLoader(new FilteredClassLoader(JdbcTemplate.class)), (analysis) -> {
			assertThat(analysis.getDescription()).contains("needs spring-jdbc").contains("Value: db");
			assertThat(analysis.getAction()).contains("spring-boot-starter-jdbc");
		}, "uid.worker.assigner=db");
	}

	@Test
	void redisAssignerWithoutSpringDataRedis() {
		assertFailure(this.contextRunner.withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class)),
				(analysis) -> {
					assertThat(analysis.getDescription()).contains("needs Spring Data Redis")
						.contains("Value: redis");
					assertThat(analysis.getAction()).contains("spring-boot-starter-data-redis");
				}, "uid.worker.assigner=redis");
	}

	@Test
	void clockFarBehindTheHighWaterMark() {
		FixedWorkerIdAssigner assigner = new FixedWorkerIdAssigner(4);
		assigner.renew(4, Instant.now().plusSeconds(3600).toEpochMilli());
		assertFailure(this.contextRunner.withBean(WorkerIdAssigner.class, () -> assigner), (analysis) -> {
			assertThat(analysis.getDescription()).contains("Worker 4 may already have issued IDs up to")
				.contains("Property: uid.mark.max-startup-wait");
			assertThat(analysis.getAction()).contains("raise uid.mark.max-startup-wait");
		}, "uid.mark.max-startup-wait=1s");
	}

	/**
	 * Runs the context with the properties, expects start-up to fail, and hands the failure analysis to the
	 * assertions.
	 */
	static void assertFailure(ApplicationContextRunner runner, Consumer<FailureAnalysis> assertions,
			String... properties) {
		runner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure(), properties);
			assertThat(analysis).as("failure analysis of %s", context.getStartupFailure()).isNotNull();
			assertions.accept(analysis);
		});
	}

	/**
	 * Asserts the analysis of a value an enumerated property does not take, as Spring Boot's binding analyzer
	 * words it: the property, the value as set and the values it takes.
	 */
	static void assertUnknownValue(FailureAnalysis analysis, String property, String value, String... allowed) {
		assertThat(analysis.getDescription()).contains("Property: " + property).contains("Value: \"" + value + "\"");
		assertThat(analysis.getAction()).contains("Update your application's configuration").contains(allowed);
	}

	/** An application bean that needs the generator, as a user's service would. */
	static class OrderService {

		OrderService(UidGenerator generator) {
		}

	}

}
