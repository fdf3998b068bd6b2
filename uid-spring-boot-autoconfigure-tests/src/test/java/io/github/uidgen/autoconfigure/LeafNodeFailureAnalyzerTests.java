package io.github.uidgen.autoconfigure;

import java.time.Duration;

import io.github.uidgen.worker.zookeeper.LeafNodeException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeafNodeFailureAnalyzer}: the property that chose the node, or the one that bounds how long a start
 * waits for a node ahead of the clock.
 */
class LeafNodeFailureAnalyzerTests {

	private static final String NODE = "/snowflake/com.example.ids/forever/10.0.0.7:8080-0000000003";

	private final MockEnvironment environment = new MockEnvironment();

	private final LeafNodeFailureAnalyzer analyzer = new LeafNodeFailureAnalyzer(this.environment);

	@Test
	void aNodeAheadOfTheClockNamesTheStartupWait() {
		this.environment.setProperty("uid.worker.zookeeper.leaf.name", "com.example.ids");
		this.environment.setProperty("uid.mark.max-startup-wait", "20s");
		FailureAnalysis analysis = this.analyzer.analyze(ahead(Duration.ofSeconds(20)));
		assertThat(analysis.getDescription()).contains("58000 ms ahead of this host's clock")
			.contains("Property: uid.mark.max-startup-wait")
			.contains("Value: 20s")
			.doesNotContain("uid.worker.zookeeper.leaf.name");
		assertThat(analysis.getAction()).contains("passed the timestamp of " + NODE)
			.contains("raise uid.mark.max-startup-wait")
			.contains("waits up to uid.mark.max-startup-wait)");
	}

	@Test
	void aNodeAheadOfTheClockOfTheCachedGeneratorAddsItsMaxAhead() {
		this.environment.setProperty("uid.generator", "cached");
		FailureAnalysis analysis = this.analyzer.analyze(ahead(Duration.ofSeconds(20)));
		assertThat(analysis.getDescription()).contains("Property: uid.mark.max-startup-wait").contains("Value: (not set)");
		assertThat(analysis.getAction())
			.contains("waits up to uid.mark.max-startup-wait plus uid.cached.max-ahead)");
	}

	@Test
	void aNodeAtFaultNamesTheLeafNameThatChoseIt() {
		this.environment.setProperty("uid.worker.zookeeper.leaf.name", "com.example.ids");
		FailureAnalysis analysis = this.analyzer
			.analyze(new LeafNodeException(NODE, null, null, "The Leaf node " + NODE + " holds x.", null));
		assertThat(analysis.getDescription()).contains("Property: uid.worker.zookeeper.leaf.name")
			.contains("Value: com.example.ids");
		assertThat(analysis.getAction()).contains("Fix the Leaf node " + NODE);
	}

	private static LeafNodeException ahead(Duration wait) {
		return new LeafNodeException(NODE, "maxStartupWait", wait, "The Leaf node " + NODE + " has the timestamp "
				+ "2026-11-25T10:00:58Z, 58000 ms ahead of this host's clock (2026-11-25T10:00:00Z), further than a "
				+ "start waits for it (" + wait.toMillis() + " ms: the generator's maxStartupWait plus its maxAhead): "
				+ "the server that wrote it issued IDs for times still to come here. Start again once the clock has "
				+ "passed it, or fix the clock that is wrong.", null);
	}

}
