package io.github.uidgen.samples.monitoring;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Grafana dashboard {@code docs/operations/uid-dashboard.json}: every panel has a title, a description and
 * queries, every query reads series the starter exports, and {@code docs/operations.md} describes every panel.
 */
class UidDashboardTests {

	private final JsonNode dashboard = JsonMapper.builder().build().readTree(OperationsFiles.read("uid-dashboard.json"));

	@Test
	void everyPanelHasATitleADescriptionAndQueries() {
		JsonNode panels = this.dashboard.path("panels");
		assertThat(panels.size()).isGreaterThanOrEqualTo(10);
		for (JsonNode panel : panels) {
			assertThat(panel.path("title").asString()).isNotBlank();
			assertThat(panel.path("description").asString()).as(panel.path("title").asString()).isNotBlank();
			assertThat(panel.path("targets").size()).as(panel.path("title").asString()).isPositive();
		}
	}

	@Test
	void everyQueryReadsSeriesTheStarterExports() {
		Set<String> exported = ExportedUidSeries.names();
		for (String expression : expressions()) {
			Set<String> read = OperationsFiles.uidNames(expression);
			assertThat(read).as("series in %s", expression).isNotEmpty();
			assertThat(exported).as("what the starter exports, for %s", expression).containsAll(read);
		}
	}

	@Test
	void theOperationsGuideDescribesEveryPanel() {
		String guide = OperationsFiles.read("../operations.md");
		for (JsonNode panel : this.dashboard.path("panels")) {
			assertThat(guide).as("docs/operations.md on the panel").contains("**" + panel.path("title").asString() + "**");
		}
	}

	private List<String> expressions() {
		List<String> expressions = new ArrayList<>();
		for (JsonNode panel : this.dashboard.path("panels")) {
			for (JsonNode target : panel.path("targets")) {
				expressions.add(target.path("expr").asString());
			}
		}
		return expressions;
	}

}
