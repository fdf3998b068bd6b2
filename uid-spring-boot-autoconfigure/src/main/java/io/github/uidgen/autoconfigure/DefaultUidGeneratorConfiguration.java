package io.github.uidgen.autoconfigure;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

import static io.github.uidgen.autoconfigure.UidPropertyMapper.map;

/**
 * The default generator: computes each ID on the call. {@link DefaultUidGeneratorCustomizer} beans adjust its
 * builder.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "uid.generator", havingValue = "default", matchIfMissing = true)
class DefaultUidGeneratorConfiguration {

	@Bean(destroyMethod = "close")
	@Lazy(false)
	@ConditionalOnMissingBean(UidGenerator.class)
	StartingUidGenerator uidGenerator(UidProperties properties, ObjectProvider<WorkerIdAssigner> workerIdAssigner,
			ObjectProvider<DefaultUidGeneratorCustomizer> customizers) {
		DefaultUidGenerator.Builder builder = UidGeneratorBuilders.configure(DefaultUidGenerator.builder(),
				properties, workerIdAssigner);
		map("uid.clock-backwards-tolerance", properties.getClockBackwardsTolerance(),
				builder::clockBackwardsTolerance);
		builder.clockBackwardsSwitchWorker(properties.isClockBackwardsSwitchWorker());
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		// The worker ID is claimed beside the rest of the context's start; UidGeneratorStartWait waits for it.
		return new StartingUidGenerator("default", builder.getLayout(), workerIdAssigner.getObject().name(),
				UidGeneratorBuilders.storeWaitAtStart(properties),
				() -> LayoutExpiryWarning.warnIfNear(builder.build(), UidClock.SYSTEM));
	}

}
