package io.github.uidgen.mybatisplus.app;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;

/** An entity with a primitive {@code long} key, {@code 0} until inserted. */
@TableName("mp_ticket")
public class Ticket {

	@TableId(type = IdType.ASSIGN_ID)
	private long id;

	private String title;

	public Ticket() {
	}

	public Ticket(String title) {
		this.title = title;
	}

	public long getId() {
		return this.id;
	}

	public void setId(long id) {
		this.id = id;
	}

	public String getTitle() {
		return this.title;
	}

	public void setTitle(String title) {
		this.title = title;
	}

}
