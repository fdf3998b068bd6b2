package io.github.uidgen.worker.redis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.WorkerState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A claim ahead made over a socket of its own ({@link RedisWorkerIdAssigner#claimAhead(long, StandaloneRedis)}, which
 * the starter makes while the JVM is still cold): the generator takes it and renews it through the connection factory;
 * the socket authenticates as an ACL user and selects its database as the factory does; and a claim the socket cannot
 * make (a wrong password, a Redis that does not answer within the command timeout) leaves the generator to claim as
 * usual. On a {@code redis-server} of the test's own, which requires a password of the user it names.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisClaimAheadOverOwnSocketTests {

	private static final int DATABASE = 3;

	private static final String USER = "uid-app";

	private static final String PASSWORD = "s3cret";

	private ThrowawayRedis redis;

	private LettuceConnectionFactory connectionFactory;

	private ClaimAheadNamespace registry;

	@BeforeAll
	void start(@TempDir Path dir) {
		this.redis = ThrowawayRedis.start(dir);
		assertThat(this.redis.cli("ACL", "SETUSER", USER, "on", ">" + PASSWORD, "~*", "&*", "+@all")).isEqualTo("OK");
		RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration("127.0.0.1", this.redis.port());
		standalone.setDatabase(DATABASE);
		standalone.setUsername(USER);
		standalone.setPassword(RedisPassword.of(PASSWORD));
		this.connectionFactory = new LettuceConnectionFactory(standalone);
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

	@Test
	void theGeneratorTakesTheClaimMadeOverTheSocketAndRenewsItThroughTheConnectionFactory() {
		RedisWorkerIdAssigner assigner = this.registry.assigner("socket-a");
		assigner.claimAhead(1023, direct(PASSWORD, Duration.ofSeconds(10))).run();
		assertThat(this.registry.worker(0).state()).as("worker ID 0 after the claim over the socket")
			.isEqualTo(WorkerState.HELD);
		assertThat(this.registry.worker(0).instanceId()).isEqualTo("socket-a");
		assertThat(this.redis.cli("-n", "0", "DBSIZE")).as("keys in database 0: the socket selected database %s",
				DATABASE)
			.isEqualTo("0");

		WorkerAssignment taken = assigner.assign(1023, Duration.ZERO);
		assertThat(taken.workerId()).isZero();
		assertThat(this.registry.claimsOf(0)).as("claims of worker ID 0: the one made over the socket").isOne();
		long mark = System.currentTimeMillis() + 2_000;
		assigner.renew(0, mark);
		assertThat(this.registry.worker(0).highWaterMarkMillis()).as("the mark renewed through the connection factory")
			.isEqualTo(mark);
		assigner.release(0, mark);
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

	private StandaloneRedis direct(String password, Duration commandTimeout) {
		return new StandaloneRedis("127.0.0.1", this.redis.port(), DATABASE, USER, password, "uid-claim-test",
				Duration.ofSeconds(10), commandTimeout);
	}

}
