package io.github.uidgen.worker.redis;

import java.util.List;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * Where an assigner's scripts go: through the connection factory, or, from a claim made over a socket of uid's own
 * until {@link #handOver()}, over that socket. On a JVM that has just started, the client behind a connection factory
 * takes a second or more of CPU to load and connect; while the application starts, the socket carries the claim, the
 * layout's record and the first renewals, and the client connects once the application is ready.
 */
final class ScriptRoute implements RegistryScripts.Transport {

	private final RegistryScripts.Transport connectionFactory;

	/** The socket, until handed over; guarded by {@code this}, so a hand-over waits for a script under way on it. */
	private DirectScriptConnection socket;

	ScriptRoute(RegistryScripts.Transport connectionFactory) {
		this.connectionFactory = connectionFactory;
	}

	/**
	 * Sends the scripts over a socket from now on, until {@link #handOver()}.
	 * @param socket the socket, not yet connected
	 */
	synchronized void sendOver(DirectScriptConnection socket) {
		this.socket = socket;
	}

	@Override
	public List<Object> eval(RedisScript<?> script, List<String> keys, String[] args) {
		synchronized (this) {
			if (this.socket != null) {
				return this.socket.eval(script, keys, args);
			}
		}
		return this.connectionFactory.eval(script, keys, args);
	}

	/** Sends every script through the connection factory from now on, and closes the socket; once is enough. */
	void handOver() {
		DirectScriptConnection handedOver;
		synchronized (this) {
			handedOver = this.socket;
			this.socket = null;
		}
		if (handedOver != null) {
			handedOver.close();
		}
	}

	/** Whether the scripts go over a socket of uid's own. */
	synchronized boolean overSocket() {
		return this.socket != null;
	}

}
