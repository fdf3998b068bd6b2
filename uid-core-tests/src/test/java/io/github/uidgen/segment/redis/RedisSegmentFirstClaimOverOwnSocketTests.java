package io.github.uidgen.segment.redis;

import java.nio.file.Path;
import java.time.Duration;

import ch.qos.logback.classic.Level;
import io.github.uidgen.CapturedLog;
import io.github.uidgen.redis.StandaloneRedis;
import io.github.uidgen.segment.SegmentRange;
import io.github.uidgen.testsupport.ServerProcess;
import io.github.uidgen.testsupport.ThrowawayRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The Redis store's first claim over uid's own socket ({@code firstClaimOver}), on throwaway servers: it is made, with
 * the check of what the Redis keeps, while the connection factory has not even been started; the socket is closed
 * once it answers and later claims go through the factory, numbers following on; a socket that cannot be used leaves
 * the claim to the factory instead of failing it.
 */
class RedisSegmentFirstClaimOverOwnSocketTests {

	private static final String SOCKET_NAME = "uid-segment-first-claim";

	@RegisterExtension
	final CapturedLog storeLog = CapturedLog.of(RedisSegmentStore.class, Level.INFO);

	@Test
	void theFirstClaimNeedsNoStartedFactoryAndLaterClaimsGoThroughIt(@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir, "--appendonly", "yes", "--appendfsync", "always")) {
			LettuceConnectionFactory notStarted = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration("127.0.0.1", redis.port()));
			assertThatIllegalStateException().as("the premise: a claim through this factory fails")
				.isThrownBy(() -> RedisSegmentStore.builder(notStarted).build().claim("orders", 10));
			RedisSegmentStore store = RedisSegmentStore.builder(notStarted)
				.firstClaimOver(socketTo(redis.port(), null))
				.build();
			assertThat(store.claim("orders", 10)).isEqualTo(new SegmentRange(1, 10));
			awaitSocketClosed(redis);
			notStarted.afterPropertiesSet();
			notStarted.start();
			try {
				assertThat(store.claim("orders", 10)).isEqualTo(new SegmentRange(11, 20));
				assertThat(store.claim("invoices", 5)).isEqualTo(new SegmentRange(1, 5));
				assertThat(redis.cli("GET", "uid:segment:orders")).isEqualTo("20");
				assertThat(this.storeLog.messages(Level.INFO))
					.as("nothing said: the Redis keeps its data, the socket answered")
					.isEmpty();
			}
			finally {
				notStarted.destroy();
			}
		}
	}

	@Test
	void aRedisThatKeepsNothingIsRefusedOverTheSocketAsThroughTheFactory(@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir)) {
			LettuceConnectionFactory notStarted = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration("127.0.0.1", redis.port()));
			RedisSegmentStore store = RedisSegmentStore.builder(notStarted)
				.firstClaimOver(socketTo(redis.port(), null))
				.build();
			assertThatExceptionOfType(RedisKeepsNothingException.class).isThrownBy(() -> store.claim("orders", 10))
				.satisfies((ex) -> assertThat(ex.getServer()).isEqualTo("Redis on port " + redis.port()))
				.satisfies((ex) -> assertThat(ex.getSettings()).isEqualTo("appendonly no, save \"\""));
			assertThat(redis.cli("EXISTS", "uid:segment:orders")).as("no counter moved").isEqualTo("0");
			awaitSocketClosed(redis);
		}
	}

	@Test
	void aSocketThatCannotBeUsedLeavesTheClaimToTheFactory(@TempDir Path dir) {
		try (ThrowawayRedis redis = ThrowawayRedis.start(dir, "--appendonly", "yes", "--appendfsync", "always")) {
			LettuceConnectionFactory factory = redis.connectionFactory();
			try {
				RedisSegmentStore nobodyListens = RedisSegmentStore.builder(factory)
					.firstClaimOver(socketTo(ServerProcess.freePort(), null))
					.build();
				assertThat(nobodyListens.claim("orders", 10)).isEqualTo(new SegmentRange(1, 10));
				RedisSegmentStore refusedCredentials = RedisSegmentStore.builder(factory)
					.firstClaimOver(socketTo(redis.port(), "not-the-password"))
					.build();
				assertThat(refusedCredentials.claim("orders", 10)).isEqualTo(new SegmentRange(11, 20));
				assertThat(refusedCredentials.claim("orders", 10)).isEqualTo(new SegmentRange(21, 30));
				assertThat(this.storeLog.messages(Level.INFO))
					.as("each store said once that its claim went through the factory instead")
					.hasSize(2)
					.allSatisfy((message) -> assertThat(message).contains("uid's own connection for the first segment "
							+ "claim").contains("the claim goes through the application's connection factory"));
				awaitSocketClosed(redis);
			}
			finally {
				factory.destroy();
			}
		}
	}

	/** The server lists no connection of that name any more: the socket was closed (its close reaches it soon). */
	private static void awaitSocketClosed(ThrowawayRedis redis) {
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(redis.cli("CLIENT", "LIST")).doesNotContain("name=" + SOCKET_NAME));
	}

	private static StandaloneRedis socketTo(int port, String password) {
		return new StandaloneRedis("127.0.0.1", port, 0, null, password, SOCKET_NAME, Duration.ofSeconds(5),
				Duration.ofSeconds(5));
	}

}
