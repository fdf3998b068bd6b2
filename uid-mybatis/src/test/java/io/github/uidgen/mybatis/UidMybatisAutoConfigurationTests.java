package io.github.uidgen.mybatis;

import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.mybatis.autoconfigure.UidMybatisAutoConfiguration;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.apache.ibatis.plugin.Interceptor;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the interceptor is auto-configured, and when not.
 */
class UidMybatisAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(UidMybatisAutoConfiguration.class));

	@Test
	void anApplicationWithAGeneratorGetsTheInterceptor() {
		this.runner.withUserConfiguration(GeneratorConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(UidIdInterceptor.class));
	}

	@Test
	void anInterceptorOfTheApplicationsOwnWins() {
		this.runner.withUserConfiguration(GeneratorConfiguration.class, OwnInterceptorConfiguration.class)
			.run((context) -> assertThat(context.getBean(UidIdInterceptor.class))
				.isSameAs(context.getBean(OwnInterceptorConfiguration.class).own));
	}

	@Test
	void noUidGeneratorMeansNoInterceptor() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(UidIdInterceptor.class));
	}

	@Test
	void withoutMybatisItBacksOff() {
		this.runner.withUserConfiguration(GeneratorConfiguration.class)
			.withClassLoader(new FilteredClassLoader(Interceptor.class))
			.run((context) -> assertThat(context).doesNotHaveBean(UidIdInterceptor.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class GeneratorConfiguration {

		@Bean(destroyMethod = "close")
		DefaultUidGenerator uidGenerator() {
			return DefaultUidGenerator.builder().workerIdAssigner(new FixedWorkerIdAssigner(5)).build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnInterceptorConfiguration {

		final UidIdInterceptor own = new UidIdInterceptor(() -> {
			throw new IllegalStateException("not used");
		});

		@Bean
		UidIdInterceptor ownInterceptor() {
			return this.own;
		}

	}

}
