package io.github.uidgen.autoconfigure;

import java.time.Duration;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidClock;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidProperties.Cached.PutPolicy;
import io.github.uidgen.autoconfigure.UidProperties.Cached.TakePolicy;
import io.github.uidgen.buffer.FailFastTakeHandler;
import io.github.uidgen.buffer.RejectedPutHandler;
import io.github.uidgen.buffer.RejectedTakeHandler;
import io.github.uidgen.buffer.WaitingTakeHandler;
import io.github.uidgen.impl.CachedUidGenerator;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

/**
 * The cached generator: hands IDs out of a ring buffer filled ahead of demand. A {@link RejectedPutHandler} or
 * {@link RejectedTakeHandler} bean of the application replaces the policy set in {@code uid.cached.*}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "uid.generator", havingValue = "cached")
class CachedUidGeneratorConfiguration {

	@Bean(destroyMethod = "close")
	@Lazy(false)
	@ConditionalOnMissingBean(UidGenerator.class)
	CachedUidGenerator uidGenerator(UidProperties properties, ObjectProvider<WorkerIdAssigner> workerIdAssigner,
			ObjectProvider<UidClock> clock, ObjectProvider<RejectedPutHandler> rejectedPutHandler,
			ObjectProvider<RejectedTakeHandler> rejectedTakeHandler) {
		UidProperties.Cached cached = properties.getCached();
		CachedUidGenerator.Builder builder = CachedUidGenerator.builder()
			.boostPower(cached.getBoostPower())
			.paddingFactor(cached.getPaddingFactor())
			.scheduleInterval(cached.getScheduleInterval())
			.maxAhead(cached.getMaxAhead())
			.rejectedPutHandler(rejectedPutHandler.getIfAvailable(() -> putHandler(cached.getPutPolicy())))
			.rejectedTakeHandler(rejectedTakeHandler.getIfAvailable(() -> takeHandler(cached)));
		return UidGeneratorBuilders.configure(builder, properties, workerIdAssigner, clock).build();
	}

	private static RejectedPutHandler putHandler(PutPolicy policy) {
		return (policy == PutPolicy.LOG) ? new LoggingRejectedPutHandler() : RejectedPutHandler.KEEP_FOR_NEXT_FILL;
	}

	private static RejectedTakeHandler takeHandler(UidProperties.Cached cached) {
		if (cached.getTakePolicy() == TakePolicy.FAIL_FAST) {
			return new FailFastTakeHandler();
		}
		Duration timeout = cached.getTakeTimeout();
		if (timeout == null || timeout.isNegative() || timeout.isZero()) {
			throw new InvalidSettingException("takeTimeout", timeout, "use a positive duration, such as 5s");
		}
		return new WaitingTakeHandler(timeout);
	}

}
