package io.github.uidgen.samples.monitoring;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The alerting rules of {@code docs/operations/uid-alerts.yml} pass {@code promtool check rules} and their unit
 * tests ({@code uid-alerts-tests.yml}) pass {@code promtool test rules}, and every series they read is one the
 * starter exports. promtool comes with Debian's {@code prometheus} package, which {@code .ci/run} installs.
 */
class PromtoolTests {

	private static final String RULES = "uid-alerts.yml";

	private static final String RULE_TESTS = "uid-alerts-tests.yml";

	@Test
	void theRulesAreValid() throws Exception {
		String output = promtool("check", "rules", RULES);
		assertThat(output).contains("SUCCESS: 10 rules found");
	}

	@Test
	void everyRuleFiresOnItsSeriesAndStaysQuietOnTheOthers() throws Exception {
		String output = promtool("test", "rules", RULE_TESTS);
		assertThat(output).contains("SUCCESS").doesNotContain("FAILED");
	}

	@Test
	void everyAlertIsUnitTested() {
		String rules = OperationsFiles.read(RULES);
		String tests = OperationsFiles.read(RULE_TESTS);
		List<String> alerts = rules.lines()
			.map(String::strip)
			.filter((line) -> line.startsWith("- alert: "))
			.map((line) -> line.substring("- alert: ".length()))
			.toList();
		assertThat(alerts).hasSize(10);
		for (String alert : alerts) {
			assertThat(tests).as("a unit test of %s", alert).contains("alertname: " + alert);
			assertThat(rules).as("the runbook of %s", alert)
				.contains("runbook: \"docs/operations.md#" + alert.toLowerCase() + "\"");
			assertThat(OperationsFiles.read("../operations.md")).as("the runbook section of %s", alert)
				.contains("### " + alert);
		}
	}

	@Test
	void theRulesReadOnlySeriesTheStarterExports() {
		assertThat(ExportedUidSeries.names())
			.containsAll(OperationsFiles.uidNames(OperationsFiles.read(RULES)));
	}

	/** Runs promtool in docs/operations and returns its output once it exited 0. */
	private static String promtool(String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of("promtool"));
		command.addAll(List.of(args));
		Process process;
		try {
			process = new ProcessBuilder(command).directory(OperationsFiles.dir().toFile())
				.redirectErrorStream(true)
				.start();
		}
		catch (IOException ex) {
			fail("promtool is needed to check the alerting rules (apt-get install prometheus; .ci/run installs it): "
					+ ex.getMessage());
			return "";
		}
		try {
			assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("promtool finished within 60 s").isTrue();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			assertThat(process.exitValue()).as("promtool %s:%n%s", args, output).isZero();
			return output;
		}
		finally {
			process.destroyForcibly();
		}
	}

}
