package io.github.uidgen.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code uid.*} property that no part of uid reads is warned about at start, with the closest known name; known
 * properties in any of Spring Boot's spellings are not.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownUidPropertiesTests {

	@TempDir
	Path stateDir;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StaticWorkerIdAssignerAutoConfiguration.class,
				UidGeneratorAutoConfiguration.class))
		.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(3));

	@Test
	void aTypoIsWarnedAboutWithTheClosestKnownProperty(CapturedOutput output) {
		this.contextRunner.withPropertyValues("uid.segment.stpe=100", "uid.cached.boostPower=2")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains("uid.segment.stpe")
			.contains("uid.segment.step")
			.doesNotContain("uid.cached.boost-power is not")
			.doesNotContain("boostPower");
	}

	@Test
	void aNameFarFromEveryKnownOneIsWarnedAboutWithoutAGuess(CapturedOutput output) {
		this.contextRunner.withPropertyValues("uid.frobnicate-everything=true")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains("uid.frobnicate-everything").doesNotContain("did you mean");
	}

	@Test
	void knownPropertiesOfListsAndEveryGroupAreQuiet(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("uid.worker-bits=10", "uid.worker.static.state-file=" + this.stateDir.resolve("w"),
					"uid.segment.step=100", "uid.jackson.write-longs-as-strings=false", "uid.mark.reservation=3s",
					"uid.worker.static.backup-ids[0]=7", "uid.cached.boost_power=1")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain("uid property");
	}

	@Test
	void theMetadataIsSearchedToTheSameNamesAndTypesAParserReads() throws IOException {
		String json;
		try (InputStream in = getClass().getClassLoader().getResourceAsStream(UnknownUidProperties.METADATA)) {
			assertThat(in).as("uid's configuration metadata").isNotNull();
			json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		assertThat(searched(json)).isNotEmpty().isEqualTo(parsed(json));
	}

	@Test
	void keysQuotedInsideTextAndOutsideThePropertiesAreNotTakenForProperties() {
		String json = """
				{"groups": [{"name": "uid.group", "type": "a.Group"}],
				 "properties": [
				  {"name": "uid.a", "type": "java.util.Map<java.lang.String,java.lang.String>",
				   "description": "Says \\"name\\": \\"uid.fake\\" in its text."},
				  {"name":"uid.b","description":"No type."},
				  {"name" : "uid.c", "type" : "java.lang.Integer"}],
				 "hints": [{"name": "uid.hint", "values": []}]}
				""";
		assertThat(searched(json)).isEqualTo(parsed(json))
			.containsExactly(List.of("uid.a", "java.util.Map<java.lang.String,java.lang.String>"),
					Arrays.asList("uid.b", null), List.of("uid.c", "java.lang.Integer"));
	}

	private static List<List<String>> searched(String json) {
		return UnknownUidProperties.properties(json).stream().map(Arrays::asList).toList();
	}

	@SuppressWarnings("unchecked")
	private static List<List<String>> parsed(String json) {
		List<Map<String, Object>> properties = (List<Map<String, Object>>) JsonParserFactory.getJsonParser().parseMap(json)
			.get("properties");
		return properties.stream()
			.map((property) -> Arrays.asList((String) property.get("name"), (String) property.get("type")))
			.toList();
	}

}
