package io.github.uidgen.samples.e2e;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.assertj.core.api.SoftAssertions;

/**
 * Every ID the instances of one scenario served, kept per instance, so that the duplicate count covers all of them
 * and a failure names the instances that share IDs.
 */
final class ServedIds {

	private final Map<String, IssuedIds> byInstance = new LinkedHashMap<>();

	/**
	 * Returns the IDs kept for an instance, to add to.
	 * @param instance the instance's name
	 * @return its IDs
	 */
	synchronized IssuedIds of(String instance) {
		return this.byInstance.computeIfAbsent(instance, (name) -> new IssuedIds());
	}

	/**
	 * Adds IDs an instance served.
	 * @param instance the instance's name
	 * @param ids the IDs
	 * @return this
	 */
	ServedIds add(String instance, IssuedIds ids) {
		of(instance).addAll(ids);
		return this;
	}

	/**
	 * Counts the duplicates over every ID served, and names the instances that share IDs.
	 * @param softly where the finding goes
	 * @param story what the instances went through, for the message
	 */
	synchronized void assertNoDuplicates(SoftAssertions softly, String story) {
		IssuedIds all = new IssuedIds();
		this.byInstance.values().forEach(all::addAll);
		List<String> names = new ArrayList<>(this.byInstance.keySet());
		StringBuilder shared = new StringBuilder();
		for (int i = 0; i < names.size(); i++) {
			for (int j = i + 1; j < names.size(); j++) {
				int common = this.byInstance.get(names.get(i)).commonWith(this.byInstance.get(names.get(j)));
				if (common > 0) {
					shared.append("; ").append(names.get(i)).append(" and ").append(names.get(j)).append(" share ")
						.append(common);
				}
			}
		}
		StringBuilder counts = new StringBuilder();
		this.byInstance.forEach((name, ids) -> counts.append(counts.isEmpty() ? "" : ", ").append(name).append(' ')
			.append(ids.size()));
		softly.assertThat(all.duplicates())
			.as("duplicates among the %s IDs served (%s) %s%s", all.size(), counts, story, shared)
			.isZero();
	}

}
