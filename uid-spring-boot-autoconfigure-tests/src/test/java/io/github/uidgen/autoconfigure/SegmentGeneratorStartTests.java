package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidGeneratorStatus;
import io.github.uidgen.autoconfigure.actuate.UidEndpointAutoConfiguration;
import io.github.uidgen.autoconfigure.actuate.UidHealthContributorAutoConfiguration;
import io.github.uidgen.autoconfigure.actuate.UidMetricsAutoConfiguration;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentStoreException;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import io.github.uidgen.segment.StoredKeys;
import io.github.uidgen.segment.jdbc.JdbcSegmentStore;
import io.github.uidgen.testsupport.ServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that the auto-configured segment generator ({@code uid.generator=segment}) claims its first segment in the
 * background, beside the rest of the context's start, with the guarantees of a claim made while its bean is created:
 * the bean is the key's {@link SegmentUidGenerator}, a call before the first segment waits for it, a start whose
 * first claim fails still fails with the same exception, and a context closed while the claim is under way leaves no
 * thread behind. The store is the real {@link JdbcSegmentStore} on the machine's MariaDB, wrapped to record which
 * thread claims and to hold the first claim for a while.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SegmentGeneratorStartTests {

	private static final String MARIADB_URL = "jdbc:mysql://127.0.0.1:3306/test";

	private final String table = "uid_ac_segstart_" + UUID.randomUUID().toString().substring(0, 8);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StaticWorkerIdAssignerAutoConfiguration.class,
				UidGeneratorAutoConfiguration.class, UidEndpointAutoConfiguration.class,
				UidHealthContributorAutoConfiguration.class, UidMetricsAutoConfiguration.class))
		.withPropertyValues("uid.generator=segment", "management.endpoints.web.exposure.include=uid");

	private final ApplicationContextRunner onMariaDb = this.contextRunner
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=" + MARIADB_URL, "spring.datasource.username=root",
				"spring.datasource.password=", "uid.segment.db.table=" + this.table,
				"uid.segment.db.initialize-schema=true")
		.withUserConfiguration(RecordingStoreConfiguration.class);

	@AfterAll
	void dropTable() {
		new JdbcTemplate(new DriverManagerDataSource(MARIADB_URL, "root", "")).execute("DROP TABLE IF EXISTS "
				+ this.table);
	}

	@Test
	void theFirstSegmentIsClaimedOnABackgroundThreadWhileTheRestOfTheContextStarts() {
		ListAppender<ILoggingEvent> logged = capture();
		String refreshing = Thread.currentThread().getName();
		try {
			this.onMariaDb.withPropertyValues("uid.segment.key=beside", "uid.segment.step=10")
				.withBean(HoldFirstClaim.class, () -> new HoldFirstClaim(Duration.ofMillis(600)))
				.withBean(EarlyCaller.class)
				.run((context) -> {
					assertThat(context).hasNotFailed();
					RecordingStore store = context.getBean(RecordingStore.class);
					assertThat(store.claimThreads).as("the first claim, off the thread that refreshes (%s)",
							refreshing).first().asString().startsWith("uid-segment-prefetch").isNotEqualTo(refreshing);
					EarlyCaller early = context.getBean(EarlyCaller.class);
					assertThat(early.fetchedWhenCreated).as("a bean created after the generator's, while the first "
							+ "claim was still under way").isZero();
					SegmentUidGenerator generator = context.getBean(SegmentUidGenerator.class);
					assertThat(context.getBean(UidGenerator.class)).isSameAs(generator);
					assertThat(context.getBean(SegmentUidGenerators.class).forKey("beside")).isSameAs(generator);
					assertThat(generator.getSegmentsFetched()).as("ready with the first segment").isOne();
					assertThat(generator.getStep()).as("the empty start is no segment used up in 0 ms").isEqualTo(10);
					assertThat(generator.getCurrentSegment()).isEqualTo(new SegmentRange(1, 10));
					assertThat(generator.getFailure()).isNull();
					assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage)
						.anySatisfy((message) -> assertThat(message)
							.startsWith("uid segment generator for key 'beside' has its first segment (1..10 from the "
									+ "db store)")
							.endsWith("ms after its start began, beside the rest of the application's start"));
				});
		}
		finally {
			release(logged);
		}
	}

	@Test
	void aCallBeforeTheFirstSegmentWaitsForItAndGetsTheFirstNumberWhileTheStatusSaysStarting() {
		this.onMariaDb.withPropertyValues("uid.segment.key=early")
			.withBean(HoldFirstClaim.class, () -> new HoldFirstClaim(Duration.ofMillis(600)))
			.withBean(EarlyCaller.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				EarlyCaller early = context.getBean(EarlyCaller.class);
				assertThat(early.statusWhenCreated.failure()).as("the status while starting, not a failure to throw")
					.isNotNull()
					.hasMessageStartingWith("The segment generator of key 'early' is starting: claiming its first "
							+ "segment from the db store since");
				assertThat(early.statusWhenCreated.segment().segmentsFetched()).isZero();
				assertThat(early.firstUid).as("waited for the first segment").isOne();
				assertThat(early.waitedMillis).as("waited for the held claim").isGreaterThanOrEqualTo(200);
				assertThat(context.getBean(UidGenerator.class).getUID()).isEqualTo(2);
				assertThat(context.getBean(SegmentUidGenerator.class).getIssuedCount()).isEqualTo(2);
			});
	}

	@Test
	void aStartWhoseFirstClaimFailsFailsWithTheSameExceptionAsBefore() {
		// A Redis nobody listens on: the claim's Redis round trip fails as it always did, now at the end of the start.
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + ServerProcess.freePort(),
					"spring.data.redis.timeout=1s", "uid.segment.store=redis", "uid.segment.key=unreachable")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(storeFailure(context.getStartupFailure())).as("in %s", context.getStartupFailure())
					.isNotNull()
					.hasMessageStartingWith("Cannot reach the Redis that hands out uid segments");
				FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure(),
						"uid.segment.store=redis");
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("Property: uid.segment.store").contains("Value: redis");
				assertThat(analysis.getAction()).contains("Check that Redis is running");
			});
		// A table that is missing: the analysis with the DDL, as before.
		this.onMariaDb
			.withPropertyValues("uid.segment.key=missing", "uid.segment.db.initialize-schema=false",
					"uid.segment.db.table=" + this.table + "_missing")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getAction()).contains("CREATE TABLE IF NOT EXISTS " + this.table + "_missing");
			});
	}

	@Test
	void aContextThatFailsWhileTheFirstClaimIsUnderWayClosesCleanly() {
		Set<Thread> before = prefetchThreads();
		AtomicBoolean claimReturned = new AtomicBoolean();
		CountDownLatch claimStarted = new CountDownLatch(1);
		this.onMariaDb.withPropertyValues("uid.segment.key=closed-early")
			.withBean(HoldFirstClaim.class, () -> new HoldFirstClaim(Duration.ofMillis(1500)))
			.withBean(ClaimWatcher.class, () -> new ClaimWatcher(claimStarted, claimReturned))
			.withBean(FailingBean.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause().hasMessage("another bean fails");
			});
		await("the held claim returns").atMost(Duration.ofSeconds(15)).untilTrue(claimReturned);
		await("no prefetch thread left").atMost(Duration.ofSeconds(15)).until(() -> {
			Set<Thread> left = prefetchThreads();
			left.removeAll(before);
			return left.isEmpty();
		});
	}

	/** The segment store's failure in the chain of causes, as the failure analyzer finds it. */
	private static Throwable storeFailure(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof SegmentStoreException) {
				return cause;
			}
		}
		return null;
	}

	private static Set<Thread> prefetchThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("uid-segment-prefetch#") && thread.isAlive())
			.collect(Collectors.toSet());
	}

	private static ListAppender<ILoggingEvent> capture() {
		ListAppender<ILoggingEvent> logged = new ListAppender<>();
		logged.start();
		((Logger) LoggerFactory.getLogger(SegmentUidGenerator.class)).addAppender(logged);
		return logged;
	}

	private static void release(ListAppender<ILoggingEvent> logged) {
		((Logger) LoggerFactory.getLogger(SegmentUidGenerator.class)).detachAppender(logged);
	}

	/** The application's own segment store bean: the real JDBC store, recorded. */
	@Configuration(proxyBeanMethods = false)
	static class RecordingStoreConfiguration {

		@Bean
		RecordingStore recordingStore(DataSource dataSource, Environment environment,
				ObjectProvider<HoldFirstClaim> hold, ObjectProvider<ClaimWatcher> watcher) {
			return new RecordingStore(JdbcSegmentStore.builder(dataSource)
				.table(environment.getRequiredProperty("uid.segment.db.table"))
				.initializeSchema(environment.getRequiredProperty("uid.segment.db.initialize-schema", Boolean.class))
				.build(), hold.getIfAvailable(() -> new HoldFirstClaim(Duration.ZERO)), watcher.getIfAvailable());
		}

	}

	/** How long the first claim is held before it goes to the store: a store whose first connection is slow. */
	record HoldFirstClaim(Duration duration) {
	}

	/** Told when the first claim has started and when it has returned. */
	record ClaimWatcher(CountDownLatch started, AtomicBoolean returned) {
	}

	/** Delegates every call to a real store, recording the thread of each claim. */
	static final class RecordingStore implements SegmentStore {

		private final SegmentStore store;

		private final HoldFirstClaim hold;

		private final ClaimWatcher watcher;

		final List<String> claimThreads = new CopyOnWriteArrayList<>();

		RecordingStore(SegmentStore store, HoldFirstClaim hold, ClaimWatcher watcher) {
			this.store = store;
			this.hold = hold;
			this.watcher = watcher;
		}

		@Override
		public SegmentRange claim(String key, long size) {
			boolean first = this.claimThreads.isEmpty();
			this.claimThreads.add(Thread.currentThread().getName());
			if (first && this.watcher != null) {
				this.watcher.started().countDown();
			}
			try {
				if (first && !this.hold.duration().isZero()) {
					try {
						Thread.sleep(this.hold.duration().toMillis());
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
				return this.store.claim(key, size);
			}
			finally {
				if (first && this.watcher != null) {
					this.watcher.returned().set(true);
				}
			}
		}

		@Override
		public Optional<StoredKeys> readKeys(int maxKeys) {
			return this.store.readKeys(maxKeys);
		}

		@Override
		public String name() {
			return this.store.name();
		}

	}

	/** A bean created after the generator's that takes a number at once, as an application's bean may. */
	static final class EarlyCaller {

		final long fetchedWhenCreated;

		final UidGeneratorStatus statusWhenCreated;

		final long firstUid;

		final long waitedMillis;

		EarlyCaller(UidGenerator generator) {
			this.fetchedWhenCreated = ((SegmentUidGenerator) generator).getSegmentsFetched();
			this.statusWhenCreated = generator.status();
			long start = System.nanoTime();
			this.firstUid = generator.getUID();
			this.waitedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
		}

	}

	/**
	 * A bean created after the generator's that fails once the first claim is under way, so that the context closes
	 * while the claim is held (failing at once could close the generator before its claim had started).
	 */
	static final class FailingBean {

		FailingBean(UidGenerator generator, ClaimWatcher watcher) throws InterruptedException {
			if (!watcher.started().await(15, TimeUnit.SECONDS)) {
				throw new IllegalStateException("the first claim did not start within 15 s");
			}
			throw new IllegalStateException("another bean fails");
		}

	}

}
