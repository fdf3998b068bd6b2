package io.github.uidgen.autoconfigure.jackson;

import io.github.uidgen.jackson.UidJacksonModule;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UidJacksonAutoConfiguration}.
 */
class UidJacksonAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(UidJacksonAutoConfiguration.class, JacksonAutoConfiguration.class));

	@Test
	void offByDefault() {
		this.contextRunner.run((context) -> {
			assertThat(context).doesNotHaveBean(UidJacksonModule.class);
			assertThat(context.getBean(JsonMapper.class).writeValueAsString(new long[] { 1L << 60 }))
				.isEqualTo("[1152921504606846976]");
		});
	}

	@Test
	void theSwitchAddsTheModuleToTheApplicationsMapper() {
		this.contextRunner.withPropertyValues("uid.jackson.write-longs-as-strings=true").run((context) -> {
			assertThat(context).hasSingleBean(UidJacksonModule.class);
			JsonMapper mapper = context.getBean(JsonMapper.class);
			assertThat(mapper.writeValueAsString(new long[] { 1L << 60 })).isEqualTo("[\"1152921504606846976\"]");
			assertThat(mapper.writeValueAsString(1L << 60)).isEqualTo("\"1152921504606846976\"");
		});
	}

	@Test
	void backsOffWithoutUidJackson() {
		this.contextRunner.withPropertyValues("uid.jackson.write-longs-as-strings=true")
			.withClassLoader(new FilteredClassLoader(UidJacksonModule.class))
			.run((context) -> assertThat(context).doesNotHaveBean(UidJacksonModule.class));
	}

}
