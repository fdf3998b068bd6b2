package io.github.uidgen.worker.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Container detection and default instance IDs.
 */
class HostEnvironmentTests {

	@TempDir
	Path root;

	@Test
	void aPlainMachineIsNoContainer() throws IOException {
		Files.createDirectories(this.root.resolve("proc/1"));
		Files.writeString(this.root.resolve("proc/1/cgroup"), "0::/init.scope\n");
		assertThat(HostEnvironment.detectContainer(Map.of(), this.root)).isFalse();
	}

	@Test
	void dockerIsDetectedByItsMarkerFile() throws IOException {
		Files.writeString(this.root.resolve(".dockerenv"), "");
		assertThat(HostEnvironment.detectContainer(Map.of(), this.root)).isTrue();
	}

	@Test
	void podmanIsDetectedByItsMarkerFile() throws IOException {
		Files.createDirectories(this.root.resolve("run"));
		Files.writeString(this.root.resolve("run/.containerenv"), "");
		assertThat(HostEnvironment.detectContainer(Map.of(), this.root)).isTrue();
	}

	@Test
	void kubernetesIsDetectedByItsServiceVariable() {
		assertThat(HostEnvironment.detectContainer(Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1"), this.root))
			.isTrue();
	}

	@Test
	void containerCgroupsAreDetected() throws IOException {
		Files.createDirectories(this.root.resolve("proc/1"));
		Files.writeString(this.root.resolve("proc/1/cgroup"), "12:memory:/kubepods/besteffort/pod1234\n");
		assertThat(HostEnvironment.detectContainer(Map.of(), this.root)).isTrue();
	}

	@Test
	void hostNameComesFromTheEnvironmentFirst() {
		HostEnvironment environment = HostEnvironment.detect(Map.of("HOSTNAME", " web-7 "), this.root);
		assertThat(environment.hostName()).isEqualTo("web-7");
		assertThat(environment.processId()).isEqualTo(ProcessHandle.current().pid());
	}

	@Test
	void defaultInstanceIdUsesThePortElseTheProcessId() {
		HostEnvironment environment = new HostEnvironment("web-7", 4242, false);
		assertThat(environment.defaultInstanceId("8080")).isEqualTo("web-7:8080");
		assertThat(environment.defaultInstanceId(null)).isEqualTo("web-7:pid4242");
		assertThat(environment.defaultInstanceId(" ")).isEqualTo("web-7:pid4242");
	}

}
