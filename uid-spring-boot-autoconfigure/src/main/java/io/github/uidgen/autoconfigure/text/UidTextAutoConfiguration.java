package io.github.uidgen.autoconfigure.text;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.jackson.UidAsString;
import io.github.uidgen.jackson.UidTextModule;
import io.github.uidgen.text.UidFormats;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.format.FormatterRegistry;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Auto-configures the text forms of the generator's IDs from {@code uid.text.*}: the {@link UidFormats} bean, the
 * forms of {@code @UidAsString} in the application's JSON, and in Spring MVC and WebFlux path variables and request
 * parameters (read in their form only, with 400 and the reason for text that is not of it).
 */
@AutoConfiguration(after = UidGeneratorAutoConfiguration.class,
		beforeName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnBooleanProperty(name = "uid.enabled", matchIfMissing = true)
@ConditionalOnBean(UidGenerator.class)
@EnableConfigurationProperties(UidTextProperties.class)
public final class UidTextAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	UidFormats uidFormats(UidTextProperties properties, UidGenerator generator) {
		return UidFormatsFactory.create(properties, generator.status().layout());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(SanitizingFunction.class)
	static class ActuatorConfiguration {

		// First, so that no function before it hands on a value that holds a key (the first change wins).
		@Bean
		@Order(Ordered.HIGHEST_PRECEDENCE)
		OpaqueKeySanitizer uidOpaqueKeySanitizer(UidTextProperties properties) {
			return OpaqueKeySanitizer.of(properties.getOpaque());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(UidAsString.class)
	static class AnnotationCheckConfiguration {

		@Bean
		UidAsStringCheck uidAsStringCheck(UidFormats formats, ConfigurableListableBeanFactory beanFactory) {
			return new UidAsStringCheck(formats, beanFactory, beanFactory.getBeanClassLoader());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ JsonMapper.class, UidTextModule.class })
	static class JacksonConfiguration {

		@Bean
		@ConditionalOnMissingBean
		UidTextModule uidTextModule(UidFormats formats) {
			return new UidTextModule(formats);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass({ WebMvcConfigurer.class, UidAsString.class })
	static class WebMvcConfiguration {

		@Bean
		WebMvcConfigurer uidTextWebMvcConfigurer(UidFormats formats) {
			return new WebMvcConfigurer() {

				@Override
				public void addFormatters(FormatterRegistry registry) {
					registry.addFormatterForFieldAnnotation(new UidAsStringFormatterFactory(formats));
				}

			};
		}

		@Bean
		UidAsStringEditors.ServletAdvice uidAsStringEditorsAdvice(UidFormats formats) {
			return new UidAsStringEditors.ServletAdvice(formats);
		}

		@Bean
		@ConditionalOnMissingBean
		UidTextExceptionResolver uidTextExceptionResolver(UidFormats formats) {
			return new UidTextExceptionResolver(formats);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass({ WebFluxConfigurer.class, UidAsString.class })
	static class WebFluxConfiguration {

		@Bean
		WebFluxConfigurer uidTextWebFluxConfigurer(UidFormats formats) {
			return new WebFluxConfigurer() {

				@Override
				public void addFormatters(FormatterRegistry registry) {
					registry.addFormatterForFieldAnnotation(new UidAsStringFormatterFactory(formats));
				}

			};
		}

		@Bean
		UidAsStringEditors.ReactiveAdvice uidAsStringEditorsAdvice(UidFormats formats) {
			return new UidAsStringEditors.ReactiveAdvice(formats);
		}

		@Bean
		@ConditionalOnMissingBean
		UidTextWebExceptionHandler uidTextWebExceptionHandler(UidFormats formats) {
			return new UidTextWebExceptionHandler(formats);
		}

	}

}
