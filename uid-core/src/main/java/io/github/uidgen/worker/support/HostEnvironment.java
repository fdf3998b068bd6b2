package io.github.uidgen.worker.support;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What an assigner records about the machine it runs on: host name, process ID and whether it runs in a
 * container. Used for default instance IDs and for the {@code WORKER_NODE} columns of the database assigner.
 */
public final class HostEnvironment {

	private static final List<String> CONTAINER_CGROUP_MARKERS = List.of("docker", "kubepods", "containerd", "libpod",
			"lxc", "crio");

	private static volatile HostEnvironment current;

	private final String hostName;

	private final long processId;

	private final boolean container;

	HostEnvironment(String hostName, long processId, boolean container) {
		this.hostName = hostName;
		this.processId = processId;
		this.container = container;
	}

	/**
	 * Returns the environment of this process, detected once.
	 * @return the environment
	 */
	public static HostEnvironment current() {
		HostEnvironment environment = current;
		if (environment == null) {
			environment = detect(System.getenv(), Path.of("/"));
			current = environment;
		}
		return environment;
	}

	/** Detects the environment from environment variables and the file system under {@code root}. */
	static HostEnvironment detect(Map<String, String> env, Path root) {
		return new HostEnvironment(detectHostName(env), ProcessHandle.current().pid(), detectContainer(env, root));
	}

	private static String detectHostName(Map<String, String> env) {
		// The variable first: resolving the local host can stall for seconds on a badly configured resolver.
		String fromEnv = env.get("HOSTNAME");
		if (fromEnv != null && !fromEnv.isBlank()) {
			return fromEnv.trim();
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (IOException ex) {
			String windows = env.get("COMPUTERNAME");
			return (windows != null && !windows.isBlank()) ? windows.trim() : "localhost";
		}
	}

	static boolean detectContainer(Map<String, String> env, Path root) {
		if (notBlank(env.get("KUBERNETES_SERVICE_HOST")) || notBlank(env.get("container"))) {
			return true;
		}
		if (Files.exists(root.resolve(".dockerenv")) || Files.exists(root.resolve("run/.containerenv"))) {
			return true;
		}
		Path cgroup = root.resolve("proc/1/cgroup");
		try {
			String content = Files.readString(cgroup, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
			return CONTAINER_CGROUP_MARKERS.stream().anyMatch(content::contains);
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
	}

	private static boolean notBlank(String value) {
		return value != null && !value.isBlank();
	}

	/**
	 * Returns the host name: {@code HOSTNAME} when set, else the resolved local host name.
	 * @return the host name
	 */
	public String hostName() {
		return this.hostName;
	}

	/**
	 * Returns the ID of this process.
	 * @return the process ID
	 */
	public long processId() {
		return this.processId;
	}

	/**
	 * Returns whether this process runs in a container (Docker, Podman, Kubernetes and the like).
	 * @return whether a container was detected
	 */
	public boolean isContainer() {
		return this.container;
	}

	/**
	 * Returns the instance ID lease assigners use when none is configured: {@code host:port}, or {@code host:pid<n>}
	 * without a port, so two processes on one host never share one by default.
	 * @param port the port the application serves on, or {@code null}
	 * @return the instance ID
	 */
	public String defaultInstanceId(String port) {
		return this.hostName + ":" + (notBlank(port) ? port.trim() : "pid" + this.processId);
	}

	@Override
	public String toString() {
		return this.hostName + " (pid " + this.processId + (this.container ? ", container" : "") + ")";
	}

}
