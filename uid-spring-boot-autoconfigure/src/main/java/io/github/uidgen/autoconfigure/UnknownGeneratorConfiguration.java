package io.github.uidgen.autoconfigure;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import io.github.uidgen.UidGenerator;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * A {@code uid.generator} that names no generator (a typo such as {@code cahced}): instead of leaving the
 * application without a {@link UidGenerator} and Spring's generic "no bean of type UidGenerator", bind the
 * properties, so that Boot reports the property, the value and the allowed values.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(UnknownGeneratorConfiguration.OnUnknownGeneratorCondition.class)
class UnknownGeneratorConfiguration {

	private static final String GENERATOR = "uid.generator";

	@Bean
	@Lazy(false)
	@ConditionalOnMissingBean(UidGenerator.class)
	UidGenerator uidGenerator(UidProperties properties) {
		// Binding the properties to inject them has failed already in all but odd cases; say it anyway.
		throw new UidPropertyException(GENERATOR, properties.getGenerator(), "No uid generator is called that.",
				"Set " + GENERATOR + " to one of: " + allowedValues() + ".");
	}

	private static String allowedValues() {
		return Arrays.stream(UidProperties.Generator.values())
			.map((generator) -> generator.name().toLowerCase(Locale.ROOT))
			.collect(Collectors.joining(", "));
	}

	/** Matches when {@code uid.generator} is set to a value that is none of the generators, in any spelling. */
	static class OnUnknownGeneratorCondition extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			ConditionMessage.Builder message = ConditionMessage.forCondition("unknown uid generator");
			String value = context.getEnvironment().getProperty(GENERATOR);
			if (!StringUtils.hasText(value)) {
				return ConditionOutcome.noMatch(message.because(GENERATOR + " is not set"));
			}
			String canonical = canonical(value);
			boolean known = Arrays.stream(UidProperties.Generator.values())
				.anyMatch((generator) -> canonical(generator.name()).equals(canonical));
			return known ? ConditionOutcome.noMatch(message.because(GENERATOR + " is " + value))
					: ConditionOutcome.match(message.because(GENERATOR + " is " + value + ", not one of "
							+ allowedValues()));
		}

		/** As Boot's lenient enum binding compares: letters and digits only, any case. */
		private static String canonical(String value) {
			return value.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
		}

	}

}
