package io.github.uidgen.autoconfigure;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidSegmentProperties.Store;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;
import org.springframework.util.ClassUtils;

import static io.github.uidgen.autoconfigure.UidPropertyMapper.map;

/**
 * The segment generator: dense numbers per key from segments claimed from the application's database, Redis or
 * Leaf's {@code leaf_alloc} table ({@code uid.segment.store}); it needs no worker-ID assigner. The
 * {@link UidGenerator} bean hands out the numbers of {@code uid.segment.key}; the {@link SegmentUidGenerators} bean
 * gives the generators of other keys, on the same store with the same settings, sharing a few background threads for
 * their claims (virtual threads when {@code spring.threads.virtual.enabled} is set on Java 21 or later). A
 * {@link SegmentStore} bean of the application replaces the configured store; {@link SegmentUidGeneratorCustomizer}
 * beans adjust the settings (for example the number of shared threads: {@code builder.prefetchThreads(4)}). With
 * {@code uid.segment.enabled=true} beside a default or cached generator, only the {@link SegmentUidGenerators} bean
 * is added: Snowflake IDs and segment numbers from one service, as a Leaf server offers both.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(OnSegmentGeneratorsCondition.class)
@Import({ JdbcSegmentStoreConfiguration.class, RedisSegmentStoreConfiguration.class,
		LeafAllocSegmentStoreConfiguration.class })
class SegmentUidGeneratorConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	SegmentUidGenerators segmentUidGenerators(UidProperties properties, ObjectProvider<SegmentStore> store,
			ObjectProvider<SegmentUidGeneratorCustomizer> customizers, Environment environment) {
		UidSegmentProperties segment = properties.getSegment();
		if (properties.getDatacenterId() != null && properties.getDatacenterId() != 0) {
			throw new UidPropertyException("uid.datacenter-id", properties.getDatacenterId(),
					"Segment numbers have no data-center part, so uid.datacenter-id cannot keep the numbers of data "
							+ "centers apart: two data centers claiming segments from stores of their own would hand "
							+ "out the same numbers.",
					"Remove uid.datacenter-id and let every data center claim segments from one shared store, or "
							+ "set uid.generator to default or cached, whose IDs carry the data center.");
		}
		SegmentStore segmentStore = store.getIfAvailable(() -> {
			throw noStore(segment.getStore());
		});
		SegmentUidGenerator.Builder builder = SegmentUidGenerator.builder(segmentStore);
		// The step first: the max step is checked against it.
		map("uid.segment.step", segment.getStep(), builder::step);
		if (segment.getMaxStep() != null) {
			map("uid.segment.max-step", segment.getMaxStep(), builder::maxStep);
		}
		map("uid.segment.target-interval", segment.getTargetInterval(), builder::targetInterval);
		map("uid.segment.prefetch-threshold", segment.getPrefetchThreshold(), builder::prefetchThreshold);
		map("uid.segment.wait-timeout", segment.getWaitTimeout(), builder::waitTimeout);
		map("uid.segment.store-wait-at-start", segment.getStoreWaitAtStart(), builder::storeWaitAtStart);
		if (Threading.VIRTUAL.isActive(environment)) {
			// As Boot's own executors do with spring.threads.virtual.enabled: the background claims run on virtual
			// threads, so the segment generators start no platform thread at all.
			builder.prefetchThreadFactory(new VirtualThreadTaskExecutor("uid-segment-prefetch-")
				.getVirtualThreadFactory());
		}
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		return new SegmentUidGenerators(builder);
	}

	@Bean
	SegmentUidGeneratorsLifecycle segmentUidGeneratorsLifecycle(SegmentUidGenerators segmentUidGenerators) {
		return new SegmentUidGeneratorsLifecycle(segmentUidGenerators);
	}

	/**
	 * The generator of {@code uid.segment.key} as the {@link UidGenerator} bean, with {@code uid.generator=segment}.
	 *
	 * <p>It starts beside the application, as the Snowflake generators do ({@link StartingUidGenerator}): the bean is
	 * the key's {@link SegmentUidGenerator} at once, and its first segment is claimed on one of the generators'
	 * background threads ({@link SegmentUidGenerators#startKey(String)}) while the rest of the context starts, so the
	 * store client's first connection (a Lettuce connection, a JDBC driver and its pool) is no longer made on the
	 * thread that refreshes the context. {@link UidGeneratorStartWait} waits for the first segment as the last step
	 * of the context's start, so the application is ready only with numbers to hand out, and a start whose first claim
	 * fails fails as before, with the same exception. A {@code getUID()} before then waits for the first segment, at
	 * most {@code uid.segment.wait-timeout}.
	 *
	 * <p>As the worker-ID claim is, a first claim that cannot reach the store is tried again, each try logged with the
	 * store's error and the pause, for up to {@code uid.segment.store-wait-at-start} from the first try that failed (a
	 * property of its own, as the segment generator reads no {@code uid.worker.*}); each try is bounded by the store's
	 * own timeout (the transaction timeout of {@code uid.segment.wait-timeout} on a database,
	 * {@code spring.data.redis.timeout} on Redis). A store that answers and refuses fails the start at once. Keys asked
	 * for through {@link SegmentUidGenerators} keep claiming their first segment on the calling thread.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "uid.generator", havingValue = "segment")
	static class SegmentAsUidGenerator {

		@Bean
		@Lazy(false)
		@ConditionalOnMissingBean(UidGenerator.class)
		SegmentUidGenerator uidGenerator(SegmentUidGenerators segmentUidGenerators, UidProperties properties) {
			// The first segment is claimed beside the rest of the context's start; UidGeneratorStartWait waits for it.
			return UidPropertyMapper.apply("uid.segment.key", properties.getSegment().getKey(),
					segmentUidGenerators::startKey);
		}

	}

	/** Explains why no store bean exists for the configured choice. */
	private static UidPropertyException noStore(Store store) {
		String property = "uid.segment.store";
		if (store == Store.REDIS) {
			return isPresent("org.springframework.data.redis.connection.RedisConnectionFactory")
					? new UidPropertyException(property, "redis",
							"No redis segment store was created for uid.segment.store.",
							"Check the condition evaluation report (--debug), or declare a SegmentStore bean.")
					: new UidPropertyException(property, "redis",
							"The redis segment store needs Spring Data Redis, which is not on the classpath.",
							"Add spring-boot-starter-data-redis, or set uid.segment.store to db.");
		}
		if (store == Store.LEAF) {
			return isPresent("org.springframework.jdbc.core.simple.JdbcClient")
					? new UidPropertyException(property, "leaf",
							"No leaf segment store was created for uid.segment.store.",
							"Check the condition evaluation report (--debug), or declare a SegmentStore bean.")
					: new UidPropertyException(property, "leaf",
							"The leaf segment store needs spring-jdbc, which is not on the classpath.",
							"Add spring-boot-starter-jdbc and the JDBC driver of Leaf's database.");
		}
		return isPresent("org.springframework.jdbc.core.simple.JdbcClient")
				? new UidPropertyException(property, "db", "No db segment store was created for uid.segment.store.",
						"Check the condition evaluation report (--debug), or declare a SegmentStore bean.")
				: new UidPropertyException(property, "db",
						"The db segment store (the default) needs spring-jdbc, which is not on the classpath.",
						"Add spring-boot-starter-jdbc and a JDBC driver, or set uid.segment.store to redis.");
	}

	/** Looks the class up through the context class loader, the one the application's classes come from. */
	private static boolean isPresent(String className) {
		return ClassUtils.isPresent(className, null);
	}

}
