package io.github.uidgen.autoconfigure;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.impl.DefaultUidGenerator;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

/**
 * The default generator: computes each ID on the call.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "uid.generator", havingValue = "default", matchIfMissing = true)
class DefaultUidGeneratorConfiguration {

	@Bean(destroyMethod = "close")
	@Lazy(false)
	@ConditionalOnMissingBean(UidGenerator.class)
	DefaultUidGenerator uidGenerator(UidProperties properties, ObjectProvider<WorkerIdAssigner> workerIdAssigner,
			ObjectProvider<UidClock> clock) {
		return UidGeneratorBuilders.configure(DefaultUidGenerator.builder(), properties, workerIdAssigner, clock)
			.clockBackwardsTolerance(properties.getClockBackwardsTolerance())
			.clockBackwardsSwitchWorker(properties.isClockBackwardsSwitchWorker())
			.build();
	}

}
