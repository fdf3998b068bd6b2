package io.github.uidgen.autoconfigure.actuate;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.segment.SegmentUidGenerators;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures the uid Micrometer meters when Micrometer is present; Spring Boot binds them to every meter
 * registry. With the segment generator, the generators of every key get meters too.
 */
@AutoConfiguration(after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
		UidGeneratorAutoConfiguration.class })
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBooleanProperty(name = "uid.enabled", matchIfMissing = true)
@ConditionalOnBean(UidGenerator.class)
public final class UidMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	UidMeterBinder uidMeterBinder(UidGenerator generator, ObjectProvider<SegmentUidGenerators> segmentGenerators) {
		return new UidMeterBinder(generator, segmentGenerators.getIfUnique(), UidClock.SYSTEM);
	}

}
