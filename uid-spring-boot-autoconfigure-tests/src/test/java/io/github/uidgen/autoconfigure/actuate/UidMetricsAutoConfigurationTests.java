package io.github.uidgen.autoconfigure.actuate;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UidMetricsAutoConfiguration}, with Spring Boot's metrics auto-configuration binding the meters.
 */
class UidMetricsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
				UidGeneratorAutoConfiguration.class, UidMetricsAutoConfiguration.class))
		.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(1));

	@Test
	void metersAreBoundToTheRegistry() {
		this.contextRunner.withPropertyValues("uid.generator=cached").run((context) -> {
			assertThat(context).hasSingleBean(UidMeterBinder.class);
			UidGenerator generator = context.getBean(UidGenerator.class);
			for (int i = 0; i < 100; i++) {
				generator.getUID();
			}
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get("uid.ids.issued").tag("generator", "cached").functionCounter().count())
				.isEqualTo(100.0);
			assertThat(registry.get("uid.ring.capacity").gauge().value()).isEqualTo(4096 << 3);
		});
	}

	@Test
	void metersAreNotConfiguredWithoutMicrometer() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(MeterBinder.class))
			.run((context) -> assertThat(context).hasSingleBean(UidGenerator.class)
				.doesNotHaveBean(UidMeterBinder.class));
	}

	@Test
	void metersAreNotConfiguredWhenUidIsSwitchedOff() {
		this.contextRunner.withPropertyValues("uid.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(UidMeterBinder.class));
	}

	@Test
	void applicationsBinderWins() {
		UidMeterBinder own = new UidMeterBinder(new FixedLayoutGenerator());
		this.contextRunner.withBean(UidMeterBinder.class, () -> own)
			.run((context) -> assertThat(context.getBean(UidMeterBinder.class)).isSameAs(own));
	}

}
