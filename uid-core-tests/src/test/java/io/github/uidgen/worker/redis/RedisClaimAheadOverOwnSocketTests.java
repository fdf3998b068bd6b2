package io.github.uidgen.worker.redis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.uidgen.UidLayout;
import io.github.uidgen.redis.StandaloneRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.worker.RecordedLayout;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.WorkerState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A claim ahead made over a socket of its own ({@link RedisWorkerIdAssigner#claimAhead(long, StandaloneRedis)}, which
 * the starter makes while the JVM is still cold): the generator takes it, records its layout and renews over the socket
 * until handed over to the connection factory;
 * the socket authenticates as an ACL user and selects its database as the factory does; and a claim the socket cannot
 * make (a wrong password, a Redis that does not answer within the command timeout) leaves the generator to claim as
 * usual. On a {@code redis-server} of the test's own, which requires a password of the user it names.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisClaimAheadOverOwnSocketTests {

	private static final int DATABASE = 3;

	private static final String USER = "uid-app";

	private static final String PASSWORD = "s3cret";

	private static final String SOCKET_NAME = "uid-claim-test";

	private static final UidLayout LAYOUT = UidLayout.defaults();

	private ThrowawayRedis redis;

	private LettuceConnectionFactory connectionFactory;

	private ClaimAheadNamespace registry;

	/** Connections the factory handed out. */
	private final AtomicInteger connections = new AtomicInteger();

	@BeforeAll
	void start(@TempDir Path dir) {
		this.redis = ThrowawayRedis.start(dir);
		assertThat(this.redis.cli("ACL", "SETUSER", USER, "on", ">" + PASSWORD, "~*", "&*", "+@all")).isEqualTo("OK");
		RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration("127.0.0.1", this.redis.port());
		standalone.setDatabase(DATABASE);
		standalone.setUsername(USER);
		standalone.setPassword(RedisPassword.of(PASSWORD));
		this.connectionFactory = new LettuceConnectionFactory(standalone) {

			@Override
			public RedisConnection getConnection() {
				RedisClaimAheadOverOwnSocketTests.this.connections.incrementAndGet();
				return super.getConnection();
			}

		};
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
	}

	@BeforeEach
	void newNamespace() {
		this.registry = ClaimAheadNamespace.create(this.connectionFactory, "own-socket");
	}

	@AfterEach
	void wipe() {
		this.registry.wipe();
	}

	@AfterAll
	void stop() {
		this.connectionFactory.destroy();
		this.redis.close();
	}

	/**
	 * Until the hand-over, nothing goes through the connection factory: the layout's record, the take and the first
	 * renewals go over the socket; from the hand-over on, the socket is closed and the factory carries the renewals.
	 */
	@Test
	void theGeneratorTakesTheClaimMadeOverTheSocketAndRenewsItThereUntilHandedOverToTheConnectionFactory() {
		RedisWorkerIdAssigner assigner = this.registry.assigner("socket-a");
		int before = this.connections.get();
		assigner.claimAhead(1023, direct(PASSWORD, Duration.ofSeconds(10))).run();
		assigner.recordLayout(LAYOUT);
		WorkerAssignment taken = assigner.assign(1023, Duration.ZERO);
		long mark = System.currentTimeMillis() + 2_000;
		assigner.renew(0, mark);
		assertThat(this.connections.get() - before)
			.as("connections taken from the factory by the claim, the layout's record, the take and a renewal")
			.isZero();
		assertThat(assigner.isOverOwnSocket()).isTrue();
		assertThat(taken.workerId()).isZero();
		assertThat(this.registry.worker(0).instanceId()).isEqualTo("socket-a");
		assertThat(this.registry.worker(0).highWaterMarkMillis()).as("the mark renewed over the socket")
			.isEqualTo(mark);
		assertThat(this.registry.claimsOf(0)).as("claims of worker ID 0: the one made over the socket").isOne();
		assertThat(this.redis.cli("-n", String.valueOf(DATABASE), "GET", this.registry.hashTag() + ":layout"))
			.as("the layout recorded over the socket")
			.isEqualTo(RecordedLayout.of(LAYOUT));
		assertThat(this.redis.cli("-n", "0", "DBSIZE")).as("keys in database 0: the socket selected database %s",
				DATABASE)
			.isEqualTo("0");
		assertThat(clientNames()).as("clients of Redis before the hand-over").contains(SOCKET_NAME);

		assigner.handOverToConnectionFactory();
		assertThat(assigner.isOverOwnSocket()).isFalse();
		await("the socket closed").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> !clientNames().contains(SOCKET_NAME));
		int handedOver = this.connections.get();
		assigner.renew(0, mark + 1);
		assertThat(this.connections.get() - handedOver).as("connections taken from the factory by a renewal")
			.isPositive();
		assertThat(this.registry.worker(0).highWaterMarkMillis()).as("the mark renewed through the connection factory")
			.isEqualTo(mark + 1);
		assigner.release(0, mark + 1);
		assertThat(this.registry.worker(0).state()).isEqualTo(WorkerState.RELEASED);
	}

	@Test
	void aClaimTheSocketCannotMakeLeavesTheGeneratorToClaimAsUsual() {
		RedisWorkerIdAssigner assigner = this.registry.assigner("socket-b");
		assigner.claimAhead(1023, direct("wrong", Duration.ofSeconds(10))).run();
		assertThat(assigner.fleet().orElseThrow().read(10).known()).as("worker IDs known after a refused AUTH")
			.isZero();

		assertThat(assigner.assign(1023, Duration.ZERO).workerId()).isZero();
		assertThat(this.registry.worker(0).state()).isEqualTo(WorkerState.HELD);
		assertThat(this.registry.claimsOf(0)).as("claims of worker ID 0: the generator's own").isOne();
	}

	@Test
	void aRedisThatDoesNotAnswerTheSocketFailsTheClaimWithinItsCommandTimeout() throws InterruptedException {
		RedisWorkerIdAssigner assigner = this.registry.assigner("socket-c");
		Thread claim = new Thread(assigner.claimAhead(1023, direct(PASSWORD, Duration.ofMillis(300))), "claim-ahead");
		this.redis.process().pause();
		try {
			claim.start();
			// Bounded far above the 300 ms timeout: a socket without one would hang until the server carries on.
			claim.join(TimeUnit.SECONDS.toMillis(20));
			assertThat(claim.isAlive()).as("the claim over the socket still waiting for a paused Redis").isFalse();
		}
		finally {
			this.redis.process().resume();
		}
		assertThat(assigner.assign(1023, Duration.ZERO).workerId()).isZero();
		assertThat(this.registry.claimsOf(0)).as("claims of worker ID 0: the generator's own").isOne();
	}

	/** The names of the clients connected to Redis. */
	private List<String> clientNames() {
		return this.redis.cli("CLIENT", "LIST")
			.lines()
			.flatMap((client) -> Arrays.stream(client.split(" ")))
			.filter((field) -> field.startsWith("name="))
			.map((field) -> field.substring("name=".length()))
			.toList();
	}

	private StandaloneRedis direct(String password, Duration commandTimeout) {
		return new StandaloneRedis("127.0.0.1", this.redis.port(), DATABASE, USER, password, SOCKET_NAME,
				Duration.ofSeconds(10), commandTimeout);
	}

}
