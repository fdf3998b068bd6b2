package io.github.uidgen.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.UUID;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.autoconfigure.actuate.UidEndpoint;
import io.github.uidgen.autoconfigure.actuate.UidEndpointAutoConfiguration;
import io.github.uidgen.autoconfigure.actuate.UidHealthContributorAutoConfiguration;
import io.github.uidgen.autoconfigure.actuate.UidHealthIndicator;
import io.github.uidgen.autoconfigure.actuate.UidMeterBinder;
import io.github.uidgen.autoconfigure.actuate.UidMetricsAutoConfiguration;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import io.github.uidgen.segment.jdbc.JdbcSegmentStore;
import io.github.uidgen.segment.redis.RedisKeepsNothingException;
import io.github.uidgen.segment.redis.RedisSegmentStore;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.github.uidgen.testsupport.ServerProcess;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.micrometer.core.instrument.MeterRegistry;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import static io.github.uidgen.autoconfigure.InvalidConfigurationTests.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the segment generator's auto-configuration ({@code uid.generator=segment}) on the real MariaDB,
 * PostgreSQL and Redis: the store chosen by {@code uid.segment.store} on the application's DataSource or Redis, no
 * worker-ID assigner, generators for other keys, the settings, user beans winning, clear start-up failures, and the
 * endpoint, health and meters answering sensibly. Each run uses a table and key prefix of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SegmentUidGeneratorAutoConfigurationTests {

	private final String name = "uid_ac_seg_" + UUID.randomUUID().toString().substring(0, 8);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StaticWorkerIdAssignerAutoConfiguration.class,
				JdbcWorkerIdAssignerAutoConfiguration.class, RedisWorkerIdAssignerAutoConfiguration.class,
				UidGeneratorAutoConfiguration.class, UidEndpointAutoConfiguration.class,
				UidHealthContributorAutoConfiguration.class, UidMetricsAutoConfiguration.class))
		.withPropertyValues("uid.generator=segment", "management.endpoints.web.exposure.include=uid");

	private final ApplicationContextRunner onMariaDb = this.contextRunner
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:mysql://127.0.0.1:3306/test", "spring.datasource.username=root",
				"spring.datasource.password=", "uid.segment.db.table=" + this.name,
				"uid.segment.db.initialize-schema=true");

	private final ApplicationContextRunner onRedis = this.contextRunner
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=6379",
				"uid.segment.store=redis", "uid.segment.redis.key-prefix=" + this.name,
				// The shared Redis of the tests keeps nothing across a restart.
				"uid.segment.redis.require-persistence=false");

	@AfterAll
	void dropTablesAndKeys() {
		for (String url : new String[] { "jdbc:mysql://127.0.0.1:3306/test", "jdbc:postgresql://127.0.0.1:5432/test" }) {
			new JdbcTemplate(new DriverManagerDataSource(url, url.contains("mysql") ? "root" : "postgres", ""))
				.execute("DROP TABLE IF EXISTS " + this.name);
		}
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", 6379));
		factory.afterPropertiesSet();
		try {
			StringRedisTemplate redis = new StringRedisTemplate(factory);
			Set<String> keys = redis.keys(this.name + "*");
			redis.delete(keys);
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void theDbStoreIsTheDefaultAndNeedsNoWorkerIdAssigner() {
		this.onMariaDb.withPropertyValues("uid.segment.key=db-default").run((context) -> {
			assertThat(context).hasSingleBean(JdbcSegmentStore.class)
				.hasSingleBean(SegmentUidGenerators.class)
				.doesNotHaveBean(WorkerIdAssigner.class);
			SegmentUidGenerator generator = (SegmentUidGenerator) context.getBean(UidGenerator.class);
			assertThat(generator.getKey()).isEqualTo("db-default");
			assertThat(generator.getStoreName()).isEqualTo("db");
			assertThat(generator.getUID()).isOne();
			assertThat(generator.getUID()).isEqualTo(2);
			assertThat(context.getBean(SegmentUidGenerators.class).forKey("db-invoice").getUID()).isOne();
			assertThat(context.getBean(SegmentUidGenerators.class).forKey("db-default")).isSameAs(generator);
			context.stop();
			assertThat(generator.getFailure()).as("closed as the context stops").isNotNull()
				.hasMessageContaining("closed");
		});
	}

	@Test
	void theDbStoreRunsOnPostgresql() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/test",
					"spring.datasource.username=postgres", "spring.datasource.password=",
					"uid.segment.db.table=" + this.name, "uid.segment.db.initialize-schema=true")
			.run((context) -> assertThat(context.getBean(UidGenerator.class).getUID()).isOne());
	}

	@Test
	void theRedisStoreIsChosenByProperty() {
		this.onRedis.withPropertyValues("uid.segment.key=orders").run((context) -> {
			assertThat(context).hasSingleBean(RedisSegmentStore.class).doesNotHaveBean(WorkerIdAssigner.class);
			assertThat(context.getBean(UidGenerator.class).getUID()).isOne();
			assertThat(new StringRedisTemplate(context.getBean(RedisConnectionFactory.class)).opsForValue()
				.get(this.name + ":orders")).isEqualTo("1000");
		});
	}

	@Test
	void metersOfEveryKeyMoveAsNumbersAreTakenAndAreRegisteredOnce() {
		this.onMariaDb
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.withPropertyValues("uid.segment.key=metered", "uid.segment.step=10")
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				UidGenerator generator = context.getBean(UidGenerator.class);
				assertThat(segmentMeter(registry, "uid.segment.fetched", "metered")).isOne();
				assertThat(segmentMeter(registry, "uid.segment.step", "metered")).isEqualTo(10);
				assertThat(segmentMeter(registry, "uid.segment.remaining", "metered")).isEqualTo(10);
				for (int i = 0; i < 3; i++) {
					generator.getUID();
				}
				assertThat(segmentMeter(registry, "uid.segment.remaining", "metered")).as("3 of 10 taken")
					.isEqualTo(7);
				for (int i = 0; i < 30; i++) {
					generator.getUID();
				}
				assertThat(segmentMeter(registry, "uid.segment.fetched", "metered")).as("33 numbers from steps of 10+")
					.isGreaterThanOrEqualTo(3);
				assertThat(segmentMeter(registry, "uid.ids.issued", "metered")).isEqualTo(33);
				assertThat(segmentMeter(registry, "uid.segment.store.failures", "metered")).isZero();

				SegmentUidGenerator invoices = context.getBean(SegmentUidGenerators.class).forKey("metered-invoice");
				invoices.getUID();
				assertThat(segmentMeter(registry, "uid.ids.issued", "metered-invoice")).as("a key used after binding")
					.isOne();
				assertThat(segmentMeter(registry, "uid.segment.remaining", "metered-invoice")).isEqualTo(9);
				assertThat(registry.find("uid.ids.issued").functionCounters()).as("one per key, none twice")
					.hasSize(2);
				assertThat(registry.find("uid.segment.fetched").functionCounters()).hasSize(2);
			});
	}

	@Test
	void theFirstSegmentComesOverUidsOwnSocketAndTheApplicationsClientMakesNoConnectionAtStart(@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir, "--appendonly", "yes", "--appendfsync", "always")) {
			this.contextRunner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
				.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
						"uid.segment.store=redis", "uid.segment.key=first", "uid.segment.step=100")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(redis.cli("GET", "uid:segment:first")).as("the first segment claimed").isEqualTo("100");
					await().atMost(Duration.ofSeconds(10))
						.untilAsserted(() -> assertThat(redis.cli("CLIENT", "LIST").lines())
							.as("no connection but redis-cli's own: uid's socket closed, Lettuce never connected")
							.singleElement()
							.asString()
							.contains("cmd=client"));
					assertThat(context.getBean(UidGenerator.class).getUID()).isOne();
				});
		}
	}

	@Test
	void aConnectionFactoryOfTheApplicationsOwnGetsTheFirstClaimNotTheRedisOfTheProperties(@TempDir Path dir) {
		try (ThrowawayRedis factorys = ThrowawayRedis.start(dir.resolve("factory"), "--appendonly", "yes",
				"--appendfsync", "always");
				ThrowawayRedis properties = ThrowawayRedis.start(dir.resolve("properties"), "--appendonly", "yes",
						"--appendfsync", "always")) {
			this.contextRunner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
				.withBean("redisConnectionFactory", LettuceConnectionFactory.class,
						() -> new LettuceConnectionFactory(
								new RedisStandaloneConfiguration("127.0.0.1", factorys.port())))
				.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + properties.port(),
						"uid.segment.store=redis", "uid.segment.key=own-factory", "uid.segment.step=100")
				.run((context) -> {
					assertThat(context.getBean(UidGenerator.class).getUID()).isOne();
					assertThat(factorys.cli("GET", "uid:segment:own-factory")).isEqualTo("100");
					assertThat(properties.cli("EXISTS", "uid:segment:own-factory")).isEqualTo("0");
				});
		}
	}

	@Test
	void aRedisThatKeepsNothingStopsTheStartUnlessAccepted(@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir)) {
			ApplicationContextRunner onVolatileRedis = this.contextRunner
				.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
				.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
						"uid.segment.store=redis", "uid.segment.key=volatile");
			onVolatileRedis.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(RedisKeepsNothingException.class)
					.hasMessageContaining("Redis on port " + redis.port() + " keeps nothing across a restart");
				assertThat(redis.cli("EXISTS", "uid:segment:volatile")).as("no counter moved").isEqualTo("0");
			});
			onVolatileRedis.withPropertyValues("uid.segment.redis.require-persistence=false")
				.run((context) -> assertThat(context.getBean(UidGenerator.class).getUID()).isOne());
		}
	}

	@Test
	void besideASnowflakeGeneratorARedisThatKeepsNothingStopsTheStartTooUnlessAcceptedWithOneWarningAtStart(
			@TempDir Path dir) {
		ListAppender<ILoggingEvent> logged = new ListAppender<>();
		Logger storeLogger = (Logger) LoggerFactory.getLogger(RedisSegmentStore.class);
		logged.start();
		storeLogger.addAppender(logged);
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir)) {
			// No key is asked for while the application starts: segment numbers are offered beside Snowflake IDs.
			ApplicationContextRunner besideSnowflake = this.contextRunner
				.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
				.withPropertyValues("uid.generator=default", "uid.worker.id=3",
						"uid.worker.static.state-file=" + dir.resolve("worker-3.state"), "uid.segment.enabled=true",
						"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
						"uid.segment.store=redis");
			besideSnowflake.run((context) -> {
				assertThat(context).as("refused at start, not at the first number of a key").hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(RedisKeepsNothingException.class)
					.hasMessageContaining("Redis on port " + redis.port() + " keeps nothing across a restart");
			});
			besideSnowflake.withPropertyValues("uid.segment.redis.require-persistence=false").run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(logged.list).as("the warning at start, before any key is used")
					.filteredOn((event) -> event.getLevel() == Level.WARN)
					.singleElement()
					.extracting(ILoggingEvent::getFormattedMessage)
					.asString()
					.contains("keeps nothing across a restart");
				assertThat(context.getBean(SegmentUidGenerators.class).forKey("beside").getUID()).isOne();
				assertThat(logged.list).filteredOn((event) -> event.getLevel() == Level.WARN).hasSize(1);
			});
		}
		finally {
			storeLogger.detachAppender(logged);
		}
	}

	@Test
	void besideASnowflakeGeneratorARedisSegmentStoreThatCannotBeReachedAtStartDoesNotStopTheStart() {
		// As before: numbers of the keys fail until the store answers, the Snowflake IDs do not need it.
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withPropertyValues("uid.generator=default", "uid.worker.id=3", "uid.worker.static.state-file="
					+ System.getProperty("java.io.tmpdir") + "/" + this.name + "-worker-3.state",
					"uid.segment.enabled=true", "spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=" + ServerProcess.freePort(), "spring.data.redis.timeout=1s",
					"uid.segment.store=redis")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(UidGenerator.class).getUID()).isPositive();
				assertThatExceptionOfType(SegmentStoreException.class)
					.isThrownBy(() -> context.getBean(SegmentUidGenerators.class).forKey("unreachable"))
					.withMessageStartingWith("Cannot reach the Redis that hands out uid segments");
			});
	}

	@Test
	void healthGoesDownOnceTheStoreIsDownAndTheClaimedNumbersAreUsedUp(@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir, "--appendonly", "yes", "--appendfsync", "always")) {
			this.contextRunner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
				.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
						"spring.data.redis.timeout=1s", "uid.segment.store=redis", "uid.segment.key=outage",
						"uid.segment.step=10", "uid.segment.max-step=10", "uid.segment.wait-timeout=1s")
				.run((context) -> {
					UidGenerator generator = context.getBean(UidGenerator.class);
					SegmentUidGenerator other = context.getBean(SegmentUidGenerators.class).forKey("outage-other");
					UidHealthIndicator indicator = context.getBean(UidHealthIndicator.class);
					for (int i = 0; i < 9; i++) {
						generator.getUID();
					}
					awaitTrue(() -> ((SegmentUidGenerator) generator).getSegmentsFetched() == 2, "the prefetch");
					redis.stop();
					Health served = indicator.health();
					assertThat(served.getStatus()).as("numbers left in memory").isEqualTo(Status.UP);
					assertThat(served.getDetails()).containsEntry("remaining", 11L);
					for (int i = 0; i < 11; i++) {
						generator.getUID();
					}
					awaitTrue(() -> indicator.health().getStatus().equals(Status.DOWN), "health DOWN");
					Health down = indicator.health();
					assertThat(down.getDetails()).containsEntry("remaining", 0L);
					assertThat((String) down.getDetails().get("error"))
						.contains("Every number of key 'outage' claimed so far is used up");
					assertThat(down.getDetails().get("keys")).asInstanceOf(InstanceOfAssertFactories.MAP)
						.extractingByKey("outage")
						.asInstanceOf(InstanceOfAssertFactories.MAP)
						.containsEntry("status", "DOWN");
					assertThat(((SegmentUidGenerator) generator).getStoreFailureCount()).isPositive();

					redis.start();
					awaitTrue(() -> indicator.health().getStatus().equals(Status.UP), "health UP again");
					assertThat(generator.getUID()).as("above every number claimed before the outage")
						.isGreaterThan(20);
					assertThat(other.getUID()).as("a key that kept its numbers").isOne();
				});
		}
	}

	@Test
	void aNamedKeyThatCannotHandOutNumbersMakesHealthDown(@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir, "--appendonly", "yes", "--appendfsync", "always")) {
			this.contextRunner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
				.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
						"spring.data.redis.timeout=1s", "uid.segment.store=redis", "uid.segment.key=big",
						"uid.segment.step=10", "uid.segment.max-step=10", "uid.segment.wait-timeout=1s")
				.run((context) -> {
					SegmentUidGenerator named = context.getBean(SegmentUidGenerators.class).forKey("small");
					redis.stop();
					for (int i = 0; i < 10; i++) {
						named.getUID();
					}
					UidHealthIndicator indicator = context.getBean(UidHealthIndicator.class);
					awaitTrue(() -> indicator.health().getStatus().equals(Status.DOWN), "health DOWN");
					Health down = indicator.health();
					assertThat(down.getDetails()).containsEntry("key", "big").containsEntry("remaining", 10L);
					assertThat((String) down.getDetails().get("error")).contains("key 'small'");
				});
		}
	}

	private static double segmentMeter(MeterRegistry registry, String name, String key) {
		return registry.get(name).tags("generator", "segment", "key", key).meter().measure().iterator().next()
			.getValue();
	}

	/** Waits at most 15 seconds for the condition, polling; fails naming what did not happen. */
	private static void awaitTrue(BooleanSupplier condition, String what) {
		await(what).atMost(Duration.ofSeconds(15)).until(condition::getAsBoolean);
	}

	@Test
	void segmentPropertiesReachTheGenerator() {
		this.onRedis
			.withPropertyValues("uid.segment.key=tuned", "uid.segment.step=10", "uid.segment.max-step=20",
					"uid.segment.prefetch-threshold=50", "uid.segment.target-interval=1h",
					"uid.segment.wait-timeout=2s")
			.run((context) -> {
				SegmentUidGenerator generator = context.getBean(SegmentUidGenerator.class);
				assertThat(generator.getStep()).isEqualTo(10);
				assertThat(generator.getCurrentSegment().size()).isEqualTo(10);
				for (int i = 0; i < 6; i++) {
					generator.getUID();
				}
				awaitTrue(() -> generator.getSegmentsFetched() >= 2, "the second segment");
				assertThat(generator.getStep()).as("doubled within the target interval").isEqualTo(20);
			});
	}

	@Test
	void everyKeySharesAFewBackgroundThreadsWhoseNumberACustomizerSets() {
		// Counted as a difference: contexts that other test classes keep cached may have prefetch threads too.
		List<Thread> before = prefetchThreads();
		this.onRedis.withPropertyValues("uid.segment.key=shared")
			.withBean(SegmentUidGeneratorCustomizer.class, () -> (builder) -> builder.prefetchThreads(3))
			.run((context) -> {
				SegmentUidGenerators generators = context.getBean(SegmentUidGenerators.class);
				for (int i = 0; i < 100; i++) {
					assertThat(generators.forKey("shared-" + i).getUID()).isOne();
				}
				List<Thread> started = prefetchThreads();
				started.removeAll(before);
				assertThat(started).as("platform threads of the shared prefetcher, for 101 keys")
					.hasSize(3)
					.allSatisfy((thread) -> assertThat(thread.isDaemon()).isTrue());
			});
		// Threads of other contexts may come and go meanwhile (the shared prefetcher's extra threads end when idle).
		List<Thread> left = prefetchThreads();
		left.removeAll(before);
		assertThat(left).as("stopped with the context").isEmpty();
	}

	@Test
	void theBackgroundThreadsAreVirtualWhenTheApplicationsThreadsAre() {
		List<Thread> before = prefetchThreads();
		this.onRedis
			.withPropertyValues("spring.threads.virtual.enabled=true", "uid.segment.key=virtual", "uid.segment.step=10",
					"uid.segment.prefetch-threshold=50")
			.run((context) -> {
				SegmentUidGenerator generator = context.getBean(SegmentUidGenerator.class);
				for (int i = 0; i < 6; i++) {
					generator.getUID();
				}
				awaitTrue(() -> generator.getSegmentsFetched() == 2, "the background claim");
				// Virtual threads are not listed among the platform threads; before Java 21, Boot runs on platform
				// threads and so do the claims.
				List<Thread> started = prefetchThreads();
				started.removeAll(before);
				assertThat(started).as("platform threads of the shared prefetcher on Java %s",
						Runtime.version().feature())
					.hasSize((Runtime.version().feature() >= 21) ? 0 : SegmentUidGenerator.DEFAULT_PREFETCH_THREADS);
			});
	}

	private static List<Thread> prefetchThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("uid-segment-prefetch#") && thread.isAlive())
			.collect(Collectors.toCollection(ArrayList::new));
	}

	@Test
	void anApplicationsSegmentStoreAndGeneratorWin() {
		LettuceConnectionFactory factory = redisConnectionFactory();
		try {
			SegmentStore own = RedisSegmentStore.builder(factory)
				.keyPrefix(this.name + "-mine")
				.requirePersistence(false)
				.build();
			this.onRedis.withBean("mySegmentStore", SegmentStore.class, () -> own)
				.withPropertyValues("uid.segment.key=mine")
				.run((context) -> {
					assertThat(context).hasSingleBean(SegmentStore.class);
					assertThat(context.getBean(SegmentStore.class)).isSameAs(own);
					assertThat(context.getBean(UidGenerator.class).getUID()).isOne();
					assertThat(new StringRedisTemplate(factory).opsForValue().get(this.name + "-mine:mine"))
						.isEqualTo("1000");
				});
		}
		finally {
			factory.destroy();
		}
		UidGenerator own = new FixedUid();
		this.onRedis.withBean(UidGenerator.class, () -> own)
			.run((context) -> assertThat(context.getBean(UidGenerator.class)).isSameAs(own));
	}

	@Test
	void theEndpointHealthAndMetersAnswerSensiblyForSegmentIds() {
		this.onRedis.withPropertyValues("uid.segment.key=actuated").run((context) -> {
			UidGenerator generator = context.getBean(UidGenerator.class);
			long uid = generator.getUID();
			UidEndpoint endpoint = context.getBean(UidEndpoint.class);
			UidEndpoint.UidDescriptor descriptor = endpoint.describe();
			assertThat(descriptor.generator()).isEqualTo("segment");
			assertThat(descriptor.layout()).isNull();
			assertThat(descriptor.issued()).isOne();
			assertThat(descriptor.failure()).isNull();
			assertThat(descriptor.workerId()).isNull();
			assertThat(descriptor.ring()).isNull();
			assertThat(descriptor.segment()).isEqualTo(new UidEndpoint.SegmentDescriptor("actuated", 1000, 999, 1, 0));
			context.getBean(SegmentUidGenerators.class).forKey("actuated-invoice").getUID();
			assertThat(endpoint.describe().segmentKeys()).containsExactly(
					new UidEndpoint.SegmentKeyDescriptor("actuated", 1, 1000, 999, 1, 0, null),
					new UidEndpoint.SegmentKeyDescriptor("actuated-invoice", 1, 1000, 999, 1, 0, null));
			WebEndpointResponse<Object> parsed = endpoint.parse("parse", Long.toString(uid));
			assertThat(parsed.getStatus()).isEqualTo(400);
			assertThat(parsed.getBody()).asString().contains("is a segment ID");
			assertThat(endpoint.parse("parse", "99999999999999999999").getStatus()).isEqualTo(400);
			assertThat(endpoint.parse("parse", "-1").getStatus()).isEqualTo(400);

			Health health = context.getBean(UidHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("generator", "segment")
				.containsEntry("key", "actuated")
				.containsEntry("step", 1000L)
				.containsEntry("remaining", 999L)
				.doesNotContainKey("expiry")
				.doesNotContainKey("workerId");
			assertThat(health.getDetails().get("keys")).asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsOnlyKeys("actuated", "actuated-invoice")
				.containsEntry("actuated-invoice", Map.of("status", "UP", "step", 1000L, "remaining", 999L));

			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			context.getBean(UidMeterBinder.class).bindTo(registry);
			assertThat(registry.get("uid.ids.issued").tags("generator", "segment", "key", "actuated")
				.functionCounter()
				.count()).isEqualTo(1);
			assertThat(registry.get("uid.segment.remaining").tag("key", "actuated-invoice").gauge().value())
				.isEqualTo(999);
			assertThat(registry.find("uid.ring.size").gauge()).isNull();
			assertThat(registry.find("uid.clock.backwards").functionCounter()).isNull();

			UidGeneratorStatus.Segment segment = generator.status().segment();
			assertThat(segment.key()).isEqualTo("actuated");
			assertThat(segment.step()).isEqualTo(1000);
			assertThat(segment.remaining()).isEqualTo(999);
			assertThat(segment.segmentsFetched()).isOne();
			assertThat(segment.storeFailures()).isZero();
		});
	}

	@Test
	void customizersAdjustTheSettingsOfEveryKeyInTheirOrderAfterTheProperties() {
		this.onRedis.withPropertyValues("uid.segment.key=customized", "uid.segment.step=10")
			.withBean("smallerSteps", SegmentUidGeneratorCustomizer.class, () -> (builder) -> builder.step(20))
			.withBean("largerSteps", SegmentUidGeneratorCustomizer.class,
					() -> (builder) -> builder.step(30).maxStep(30))
			.run((context) -> {
				SegmentUidGenerator generator = (SegmentUidGenerator) context.getBean(UidGenerator.class);
				assertThat(generator.getUID()).isOne();
				// Both ran, the one registered later last.
				assertThat(generator.status().segment().step()).isEqualTo(30);
				SegmentUidGenerator other = context.getBean(SegmentUidGenerators.class).forKey("customized-other");
				assertThat(other.status().segment().step()).isEqualTo(30);
			});
	}

	@Test
	void aMissingDataSourceFailsNamingTheStoreProperty() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("needs a DataSource")
				.contains("Property: uid.segment.store")
				.contains("Value: db");
			assertThat(analysis.getAction()).contains("spring.datasource.url").contains("uid.segment.store to redis");
		}, "uid.generator=segment");
	}

	@Test
	void aMissingLibraryFailsNamingTheStoreProperty() {
		assertFailure(this.contextRunner.withClassLoader(new FilteredClassLoader(JdbcClient.class)), (analysis) -> {
			assertThat(analysis.getDescription()).contains("needs spring-jdbc").contains("Value: db");
			assertThat(analysis.getAction()).contains("spring-boot-starter-jdbc");
		}, "uid.generator=segment");
		assertFailure(this.contextRunner.withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class)),
				(analysis) -> {
					assertThat(analysis.getDescription()).contains("needs Spring Data Redis").contains("Value: redis");
					assertThat(analysis.getAction()).contains("spring-boot-starter-data-redis");
				}, "uid.generator=segment", "uid.segment.store=redis");
	}

	@Test
	void aMissingTableFailsWithTheDdl() {
		assertFailure(this.onMariaDb, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.segment.db.table")
				.contains("Value: " + this.name + "_missing");
			assertThat(analysis.getAction()).contains("CREATE TABLE IF NOT EXISTS " + this.name + "_missing")
				.contains("uid.segment.db.initialize-schema=true");
		}, "uid.generator=segment", "uid.segment.db.table=" + this.name + "_missing",
				"uid.segment.db.initialize-schema=false");
	}

	@Test
	void invalidSegmentPropertiesNameTheirPropertyValueAndFix() {
		assertInvalid("uid.segment.step", "0", "use a number of 1 to 1000000000", "uid.segment.step=0");
		assertInvalid("uid.segment.max-step", "5", "from the step (10)", "uid.segment.step=10",
				"uid.segment.max-step=5");
		assertInvalid("uid.segment.prefetch-threshold", "100", "0 to 99", "uid.segment.prefetch-threshold=100");
		assertInvalid("uid.segment.target-interval", "PT0S", "at least 1 ms", "uid.segment.target-interval=0s");
		assertInvalid("uid.segment.wait-timeout", "PT0S", "positive duration", "uid.segment.wait-timeout=0s");
		assertInvalid("uid.segment.store-wait-at-start", "PT-1S", "use 0 to fail the start",
				"uid.segment.store-wait-at-start=-1s");
		assertInvalid("uid.segment.key", "order numbers", "letters, digits", "uid.segment.key=order numbers");
		assertInvalid("uid.segment.db.table", "x;y", "table name", "uid.segment.db.table=x;y");
		assertFailure(this.onRedis, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.segment.redis.key-prefix")
				.contains("Value: a b");
			assertThat(analysis.getAction()).contains("without white space");
		}, "uid.generator=segment", "uid.segment.redis.key-prefix=a b");
		assertFailure(this.onMariaDb,
				(analysis) -> InvalidConfigurationTests.assertUnknownValue(analysis, "uid.segment.store", "mongo", "DB",
						"REDIS"),
				"uid.generator=segment", "uid.segment.store=mongo");
	}

	private void assertInvalid(String property, String value, String fix, String... properties) {
		String[] all = new String[properties.length + 1];
		all[0] = "uid.generator=segment";
		System.arraycopy(properties, 0, all, 1, properties.length);
		assertFailure(this.onMariaDb, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: " + property).contains("Value: " + value);
			assertThat(analysis.getAction()).startsWith("Change " + property + ":").contains(fix);
		}, all);
	}

	private static LettuceConnectionFactory redisConnectionFactory() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", 6379));
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/** An application's own generator. */
	private static final class FixedUid implements UidGenerator {

		@Override
		public long getUID() {
			return 42;
		}

		@Override
		public io.github.uidgen.UidLayout layout() {
			return io.github.uidgen.UidLayout.defaults();
		}

	}

}
