package io.github.uidgen.autoconfigure;

import java.time.Duration;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidCachedProperties.TakePolicy;
import io.github.uidgen.buffer.FailFastTakeHandler;
import io.github.uidgen.buffer.RejectedTakeHandler;
import io.github.uidgen.buffer.WaitingTakeHandler;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

import static io.github.uidgen.autoconfigure.UidPropertyMapper.map;

/**
 * The cached generator: hands IDs out of a ring buffer filled ahead of demand. {@link CachedUidGeneratorCustomizer}
 * beans adjust its builder, for example to replace the take policy set in {@code uid.cached.*} by a handler of the
 * application's own.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "uid.generator", havingValue = "cached")
class CachedUidGeneratorConfiguration {

	@Bean(destroyMethod = "close")
	@Lazy(false)
	@ConditionalOnMissingBean(UidGenerator.class)
	StartingUidGenerator uidGenerator(UidProperties properties, ObjectProvider<WorkerIdAssigner> workerIdAssigner,
			ObjectProvider<CachedUidGeneratorCustomizer> customizers) {
		UidCachedProperties cached = properties.getCached();
		// The layout first: the boost power is checked against it.
		CachedUidGenerator.Builder builder = UidGeneratorBuilders.configure(CachedUidGenerator.builder(), properties,
				workerIdAssigner);
		map("uid.cached.boost-power", cached.getBoostPower(), builder::boostPower);
		map("uid.cached.padding-factor", cached.getPaddingFactor(), builder::paddingFactor);
		map("uid.cached.schedule-interval", cached.getScheduleInterval(), builder::scheduleInterval);
		map("uid.cached.max-ahead", cached.getMaxAhead(), builder::maxAhead);
		builder.rejectedTakeHandler(takeHandler(cached));
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		// The worker ID is claimed beside the rest of the context's start; UidGeneratorStartWait waits for it.
		return new StartingUidGenerator("cached", builder.getLayout(), workerIdAssigner.getObject().name(),
				UidGeneratorBuilders.storeWaitAtStart(properties),
				() -> LayoutExpiryWarning.warnIfNear(builder.build(), UidClock.SYSTEM));
	}

	private static RejectedTakeHandler takeHandler(UidCachedProperties cached) {
		if (cached.getTakePolicy() == TakePolicy.FAIL_FAST) {
			return new FailFastTakeHandler();
		}
		Duration timeout = cached.getTakeTimeout();
		if (timeout == null || timeout.isNegative() || timeout.isZero()) {
			throw UidPropertyMapper.refused("uid.cached.take-timeout", timeout, "use a positive duration, such as 5s",
					null);
		}
		return new WaitingTakeHandler(timeout);
	}

}
