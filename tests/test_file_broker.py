"""`make run`'s Celery broker (joker_site/file_broker.py): a worker that looks at the queue while
a web process or beat is writing a message finds the whole message or none, never a part."""

import builtins
import json
from queue import Empty

import pytest
from kombu import Connection

BROKER = "joker_site.file_broker:Transport"
KOMBUS_OWN = "filesystem"


def _channel(folder, transport):
    connection = Connection("filesystem://", transport=transport, transport_options={
        "data_folder_in": str(folder), "data_folder_out": str(folder)})
    return connection, connection.default_channel


def _look_while_writing(monkeypatch, folder, transport):
    """Put one message; at the moment its bytes are written, a reader looks at the queue.
    Returns (what the reader got while the message was being written, what it got after)."""
    writer_connection, writer = _channel(folder, transport)
    reader_connection, reader = _channel(folder, transport)
    seen_during = []
    real_open = builtins.open

    def open_watched(path, mode="r", *args, **kwargs):
        file = real_open(path, mode, *args, **kwargs)
        if "w" not in mode or not str(path).startswith(str(folder)):
            return file

        class WatchedFile:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                file.close()

            def __getattr__(self, name):
                return getattr(file, name)

            def write(self, data):
                try:
                    seen_during.append(reader._get("tasks"))
                except Empty:
                    seen_during.append(None)
                return file.write(data)

        return WatchedFile()

    monkeypatch.setattr(builtins, "open", open_watched)
    try:
        writer._put("tasks", {"task": "games.tasks.tick", "body": "x" * 100})
    finally:
        monkeypatch.setattr(builtins, "open", real_open)
    after = reader._get("tasks")
    writer_connection.release()
    reader_connection.release()
    return seen_during, after


def test_a_reader_looking_while_a_message_is_written_finds_nothing_then_the_whole_message(tmp_path, monkeypatch):
    seen_during, after = _look_while_writing(monkeypatch, tmp_path, BROKER)
    assert seen_during == [None]
    assert after == {"task": "games.tasks.tick", "body": "x" * 100}
    assert list(tmp_path.iterdir()) == []  # nothing left behind


def test_kombus_own_transport_hands_that_reader_an_empty_message(tmp_path, monkeypatch):
    """Why the broker is ours: kombu's reader takes the file before it is written, and the
    JSON error it then raises stops a Celery worker."""
    with pytest.raises(json.JSONDecodeError):
        _look_while_writing(monkeypatch, tmp_path, KOMBUS_OWN)


def test_messages_keep_their_order_and_nothing_is_lost(tmp_path):
    connection, channel = _channel(tmp_path, BROKER)
    for index in range(50):
        channel._put("tasks", {"index": index})
    got = [channel._get("tasks")["index"] for _ in range(50)]
    with pytest.raises(Empty):
        channel._get("tasks")
    connection.release()
    assert got == list(range(50))
