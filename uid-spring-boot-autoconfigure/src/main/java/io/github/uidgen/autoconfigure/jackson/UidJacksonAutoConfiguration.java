package io.github.uidgen.autoconfigure.jackson;

import io.github.uidgen.jackson.UidJacksonModule;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures uid's Jackson module when {@code uid.jackson.write-longs-as-strings=true}, so Spring Boot adds it
 * to the application's {@code JsonMapper}. {@code @UidAsString} needs no configuration.
 *
 * <p>The properties are bound whether or not the switch is on, so a value that is not a boolean stops start-up with
 * Spring Boot's binding error (property, value, reason) instead of reading as {@code false}.
 */
@AutoConfiguration(before = JacksonAutoConfiguration.class)
@ConditionalOnClass({ JsonMapper.class, UidJacksonModule.class })
@EnableConfigurationProperties(UidJacksonProperties.class)
public final class UidJacksonAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(UidJacksonProperties.PREFIX + ".write-longs-as-strings")
	UidJacksonModule uidJacksonModule() {
		return UidJacksonModule.allLongsAsStrings();
	}

}
