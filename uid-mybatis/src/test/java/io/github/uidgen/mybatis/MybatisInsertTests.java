package io.github.uidgen.mybatis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.mybatis.app.Invoice;
import io.github.uidgen.mybatis.app.InvoiceMapper;
import io.github.uidgen.mybatis.app.Misfits;
import io.github.uidgen.mybatis.app.MybatisTestApplication;
import io.github.uidgen.mybatis.app.Ticket;
import io.github.uidgen.testsupport.ScratchDatabase;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Objects inserted through MyBatis mappers on MariaDB, in an application of mybatis-spring-boot-starter and the uid
 * starter: the auto-configured {@link UidIdInterceptor} fills their {@code @UidId} before each insert.
 */
class MybatisInsertTests {

	private static final long WORKER_ID = 23;

	private static ScratchDatabase database;

	private static ConfigurableApplicationContext context;

	private static UidGenerator uids;

	private static InvoiceMapper invoices;

	@BeforeAll
	static void start() {
		database = new ScratchDatabase("uid_mb", MybatisTestApplication.TABLES);
		context = new SpringApplicationBuilder(MybatisTestApplication.class).web(WebApplicationType.NONE)
			.run("--spring.datasource.url=" + database.url(), "--spring.datasource.username=root",
					"--spring.datasource.password=", "--uid.worker.id=" + WORKER_ID,
					"--uid.worker.static.state-file=target/uid-state/mybatis.state");
		uids = context.getBean(UidGenerator.class);
		invoices = context.getBean(InvoiceMapper.class);
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
		database.close();
	}

	@Test
	void theInterceptorIsAPluginOfTheStartersSqlSessionFactory() {
		assertThat(context.getBean(SqlSessionFactory.class).getConfiguration().getInterceptors())
			.containsExactly(context.getBean(UidIdInterceptor.class));
	}

	@Test
	void oneObjectGetsAnIdOfTheGenerator() {
		Invoice invoice = new Invoice(null, "one");
		invoices.insert(invoice);
		assertThat(uids.decode(invoice.getId()).workerId()).isEqualTo(WORKER_ID);
		assertThat(invoices.customerOf(invoice.getId())).isEqualTo("one");
	}

	@Test
	void aPrimitiveIdOfZeroMarkedOnItsGetterIsFilled() {
		Ticket ticket = new Ticket("printer");
		invoices.insertTicket(ticket);
		assertThat(uids.decode(ticket.getId()).workerId()).isEqualTo(WORKER_ID);
	}

	@Test
	void everyElementOfAListAndOfAnArrayGetsItsOwnId() {
		List<Invoice> list = new ArrayList<>();
		Invoice[] array = new Invoice[20];
		for (int n = 0; n < 20; n++) {
			list.add(new Invoice(null, "list-" + n));
			array[n] = new Invoice(null, "array-" + n);
		}
		invoices.insertAll(list);
		invoices.insertArray(array);
		List<Long> ids = new ArrayList<>(list.stream().map(Invoice::getId).toList());
		ids.addAll(List.of(array).stream().map(Invoice::getId).toList());
		assertThat(ids).hasSize(40).doesNotContainNull().doesNotHaveDuplicates();
		assertThat(invoices.idsOf("list-%")).containsExactlyInAnyOrderElementsOf(ids.subList(0, 20));
		assertThat(invoices.idsOf("array-%")).containsExactlyInAnyOrderElementsOf(ids.subList(20, 40));
	}

	@Test
	void anObjectAmongNamedParametersIsFilled() {
		Invoice invoice = new Invoice(null, null);
		invoices.insertFor(invoice, "named");
		assertThat(invoice.getId()).isNotNull();
		assertThat(invoices.customerOf(invoice.getId())).isEqualTo("named");
	}

	@Test
	void anIdSetByTheApplicationIsKeptAndUpdatesAreLeftAlone() {
		Invoice invoice = new Invoice(77L, "set by hand");
		invoices.insert(invoice);
		assertThat(invoice.getId()).isEqualTo(77L);
		assertThat(invoices.customerOf(77L)).isEqualTo("set by hand");

		Invoice unsaved = new Invoice(null, "nobody");
		invoices.update(unsaved);
		assertThat(unsaved.getId()).isNull();
	}

	@Test
	void theBatchExecutorFillsEveryStatementsObject() {
		List<Invoice> batch = new ArrayList<>();
		try (SqlSession session = context.getBean(SqlSessionFactory.class).openSession(ExecutorType.BATCH)) {
			InvoiceMapper mapper = session.getMapper(InvoiceMapper.class);
			for (int n = 0; n < 100; n++) {
				Invoice invoice = new Invoice(null, "batch-" + n);
				mapper.insert(invoice);
				batch.add(invoice);
			}
			session.flushStatements();
			session.commit();
		}
		List<Long> ids = batch.stream().map(Invoice::getId).toList();
		assertThat(ids).doesNotContainNull().doesNotHaveDuplicates();
		assertThat(invoices.idsOf("batch-%")).containsExactlyInAnyOrderElementsOf(ids);
	}

	@Test
	void fourThreadsInsertingGetDistinctIds() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(4);
		List<Future<List<Long>>> futures = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			int thread = t;
			futures.add(threads.submit(() -> {
				List<Long> ids = new ArrayList<>();
				for (int n = 0; n < 200; n++) {
					Invoice invoice = new Invoice(null, "thread-" + thread + "-" + n);
					invoices.insert(invoice);
					ids.add(invoice.getId());
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
		assertThat(invoices.idsOf("thread-%")).containsExactlyInAnyOrderElementsOf(ids);
	}

	@Test
	void anIdOfAnotherTypeOrOnARecordIsRefusedWithTheFix() {
		assertThatException().isThrownBy(() -> invoices.insertTextId(new Misfits.TextId()))
			.withMessageContaining("Misfits$TextId.id is java.lang.String")
			.withMessageContaining("change the ID's type to Long");
		assertThatException().isThrownBy(() -> invoices.insertFrozen(new Misfits.Frozen(null, "acme")))
			.withMessageContaining("the field is final (a record)")
			.withMessageContaining("Give the object its ID when you create it");
	}

}
