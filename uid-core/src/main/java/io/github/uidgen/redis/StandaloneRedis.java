package io.github.uidgen.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * A standalone Redis server that uid reaches over a plain TCP socket of its own ({@link DirectRedisConnection}),
 * without a client library, for what it sends while the JVM is cold: the early worker-ID claim
 * ({@link io.github.uidgen.worker.redis.RedisWorkerIdAssigner#claimAhead(long, StandaloneRedis)}) and a segment
 * store's first claim ({@link io.github.uidgen.segment.redis.RedisSegmentStore.Builder#firstClaimOver}). On a JVM that
 * has just started, Lettuce takes a second or more to load and make its first connection (on two cores, beside the
 * application's own start: 1.3–2.3 s), where a socket takes milliseconds. No TLS, Sentinel or Cluster: those are left
 * to the connection factory.
 *
 * @param host the server's host name or address
 * @param port its port
 * @param database the database to {@code SELECT}, 0 for none
 * @param username the ACL user to authenticate as, or {@code null} for the default user
 * @param password the password, or {@code null} to send no {@code AUTH}
 * @param clientName the name to give the connection ({@code CLIENT SETNAME}), or {@code null}
 * @param connectTimeout how long connecting may take
 * @param commandTimeout how long each command may take to answer
 */
public record StandaloneRedis(String host, int port, int database, String username, String password,
		String clientName, Duration connectTimeout, Duration commandTimeout) {

	public StandaloneRedis {
		Objects.requireNonNull(host, "host");
		Objects.requireNonNull(connectTimeout, "connectTimeout");
		Objects.requireNonNull(commandTimeout, "commandTimeout");
	}

	/** Where it connects, without the password. */
	@Override
	public String toString() {
		return this.host + ":" + this.port + "/" + this.database;
	}

}
