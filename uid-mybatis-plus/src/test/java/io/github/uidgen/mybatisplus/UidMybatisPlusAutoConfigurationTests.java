package io.github.uidgen.mybatisplus;

import com.baomidou.mybatisplus.core.incrementer.DefaultIdentifierGenerator;
import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.mybatisplus.app.Order;
import io.github.uidgen.mybatisplus.autoconfigure.UidMybatisPlusAutoConfiguration;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the {@code IdentifierGenerator} is auto-configured, and when not.
 */
class UidMybatisPlusAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(UidMybatisPlusAutoConfiguration.class));

	@Test
	void theApplicationsGeneratorBacksTheIdentifierGenerator() {
		this.runner.withUserConfiguration(GeneratorConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(IdentifierGenerator.class);
			long id = context.getBean(IdentifierGenerator.class).nextId(new Order()).longValue();
			assertThat(context.getBean(UidGenerator.class).decode(id).workerId()).isEqualTo(5);
		});
	}

	@Test
	void anIdentifierGeneratorOfTheApplicationsOwnWins() {
		this.runner.withUserConfiguration(GeneratorConfiguration.class, OwnIdentifierGeneratorConfiguration.class)
			.run((context) -> assertThat(context.getBean(IdentifierGenerator.class))
				.isSameAs(context.getBean(OwnIdentifierGeneratorConfiguration.class).own));
	}

	@Test
	void noUidGeneratorMeansNoIdentifierGenerator() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(IdentifierGenerator.class));
	}

	@Test
	void withoutMybatisPlusItBacksOff() {
		this.runner.withUserConfiguration(GeneratorConfiguration.class)
			.withClassLoader(new FilteredClassLoader(IdentifierGenerator.class))
			.run((context) -> assertThat(context).doesNotHaveBean(UidIdentifierGenerator.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class GeneratorConfiguration {

		@Bean(destroyMethod = "close")
		DefaultUidGenerator uidGenerator() {
			return DefaultUidGenerator.builder().workerIdAssigner(new FixedWorkerIdAssigner(5)).build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnIdentifierGeneratorConfiguration {

		final IdentifierGenerator own = new DefaultIdentifierGenerator(1, 1);

		@Bean
		IdentifierGenerator ownIdentifierGenerator() {
			return this.own;
		}

	}

}
