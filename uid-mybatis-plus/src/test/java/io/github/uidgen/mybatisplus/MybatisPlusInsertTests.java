package io.github.uidgen.mybatisplus;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.mybatisplus.app.MybatisPlusTestApplication;
import io.github.uidgen.mybatisplus.app.Note;
import io.github.uidgen.mybatisplus.app.NoteMapper;
import io.github.uidgen.mybatisplus.app.Order;
import io.github.uidgen.mybatisplus.app.OrderMapper;
import io.github.uidgen.mybatisplus.app.Ticket;
import io.github.uidgen.mybatisplus.app.TicketMapper;
import io.github.uidgen.testsupport.ScratchDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Entities inserted through MyBatis-Plus mappers on MariaDB, with {@code @TableId(type = IdType.ASSIGN_ID)} keys of
 * each supported type, get their IDs from the application's {@code UidGenerator}: the starter's
 * {@link UidIdentifierGenerator} replaces MyBatis-Plus's own Snowflake.
 */
class MybatisPlusInsertTests {

	private static final long WORKER_ID = 21;

	private static ScratchDatabase database;

	private static ConfigurableApplicationContext context;

	private static UidGenerator uids;

	@BeforeAll
	static void start() {
		database = new ScratchDatabase("uid_mp", MybatisPlusTestApplication.TABLES);
		context = new SpringApplicationBuilder(MybatisPlusTestApplication.class).web(WebApplicationType.NONE)
			.run("--spring.datasource.url=" + database.url(), "--spring.datasource.username=root",
					"--spring.datasource.password=", "--uid.worker.id=" + WORKER_ID,
					"--uid.worker.static.state-file=target/uid-state/mybatis-plus.state");
		uids = context.getBean(UidGenerator.class);
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
		database.close();
	}

	@Test
	void theStartersGeneratorIsMybatisPlussIdentifierGenerator() {
		assertThat(context.getBean(com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator.class))
			.isInstanceOf(UidIdentifierGenerator.class);
	}

	@Test
	void entitiesInsertedByFourThreadsGetDistinctIdsOfTheGenerator() throws Exception {
		OrderMapper orders = context.getBean(OrderMapper.class);
		ExecutorService threads = Executors.newFixedThreadPool(4);
		List<Future<List<Long>>> futures = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			int thread = t;
			futures.add(threads.submit(() -> {
				List<Long> ids = new ArrayList<>();
				for (int n = 0; n < 200; n++) {
					Order order = new Order(null, "item-" + thread + "-" + n);
					orders.insert(order);
					ids.add(order.getId());
				}
				return ids;
			}));
		}
		List<Long> ids = new ArrayList<>();
		for (Future<List<Long>> future : futures) {
			ids.addAll(future.get(60, TimeUnit.SECONDS));
		}
		threads.shutdown();
		assertThat(ids).hasSize(800).doesNotContainNull().doesNotHaveDuplicates();
		assertThat(ids).allSatisfy((id) -> assertThat(uids.decode(id).workerId()).isEqualTo(WORKER_ID));
		List<Long> stored = jdbc().queryForList("SELECT id FROM mp_order WHERE item LIKE 'item-%'", Long.class);
		assertThat(stored).containsExactlyInAnyOrderElementsOf(ids);
	}

	@Test
	void aBatchInsertGivesEveryEntityItsOwnId() {
		List<Order> batch = new ArrayList<>();
		for (int n = 0; n < 100; n++) {
			batch.add(new Order(null, "batch-" + n));
		}
		context.getBean(OrderMapper.class).insert(batch);
		List<Long> ids = batch.stream().map(Order::getId).toList();
		assertThat(ids).doesNotContainNull().doesNotHaveDuplicates();
		assertThat(jdbc().queryForList("SELECT id FROM mp_order WHERE item LIKE 'batch-%'", Long.class))
			.containsExactlyInAnyOrderElementsOf(ids);
	}

	@Test
	void aPrimitiveKeyOfZeroAndAStringKeyAreFilled() {
		Ticket ticket = new Ticket("printer");
		context.getBean(TicketMapper.class).insert(ticket);
		assertThat(uids.decode(ticket.getId()).workerId()).isEqualTo(WORKER_ID);

		Note note = new Note("hello");
		context.getBean(NoteMapper.class).insert(note);
		assertThat(note.getId()).containsOnlyDigits();
		assertThat(uids.decode(Long.parseLong(note.getId())).workerId()).isEqualTo(WORKER_ID);
		assertThat(jdbc().queryForObject("SELECT text FROM mp_note WHERE id = ?", String.class, note.getId()))
			.isEqualTo("hello");
	}

	@Test
	void aKeySetByTheApplicationIsKept() {
		Order order = new Order(42L, "set by hand");
		context.getBean(OrderMapper.class).insert(order);
		assertThat(order.getId()).isEqualTo(42L);
		assertThat(jdbc().queryForObject("SELECT item FROM mp_order WHERE id = 42", String.class))
			.isEqualTo("set by hand");
	}

	private static JdbcTemplate jdbc() {
		return context.getBean(JdbcTemplate.class);
	}

}
