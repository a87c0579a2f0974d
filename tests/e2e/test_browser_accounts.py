"""Accounts in a real browser, through the real allauth forms: a person signs up, logs
out from the page header, gets a wrong password refused with a clear message, and
logs in with the right one."""

import re

from django.contrib.auth import get_user_model
from django.utils import translation
from playwright.sync_api import expect

from e2e.layout import PHONE, assert_nothing_cut_off

USERNAME = "nino_gelashvili"
PASSWORD = "kvevri-and-churchkhela-42"
HOME = re.compile(r"^http://[^/]+/ka/$")
LOGIN_PAGE = re.compile(r"/ka/accounts/login/(\?.*)?$")


def wrong_password_message(language):
    """allauth's own words for a refused log-in, in the page's language."""
    from allauth.account.adapter import get_adapter

    with translation.override(language):
        return str(get_adapter().error_messages["username_password_mismatch"])


def logged_in_as(page, username):
    return page.locator("header .account-menu .who").filter(has_text=username)


def log_out(page):
    page.locator("header .account-menu form button[type=submit]").click()


def fill_log_in(page, username, password):
    form = page.locator("main form:has([name=login])")
    form.locator("input[name=login]").fill(username)
    form.locator("input[name=password]").fill(password)
    form.locator("button[type=submit]").click()


def test_sign_up_log_out_and_log_in_again(page, snap):
    page.goto("/ka/")
    page.locator("header .account-menu a[href*='/accounts/signup/']").click()
    expect(page).to_have_url(re.compile(r"/ka/accounts/signup/(\?.*)?$"))
    expect(page.locator("html")).to_have_attribute("lang", "ka")
    form = page.locator("main form:has([name=password1])")
    form.locator("input[name=username]").fill(USERNAME)
    form.locator("input[name=password1]").fill(PASSWORD)
    form.locator("input[name=password2]").fill(PASSWORD)
    snap(page, "sign-up-form-filled")
    form.locator("button[type=submit]").click()

    # Signed up and logged in at once (an email address is optional): the header names them.
    expect(page).to_have_url(HOME)
    expect(logged_in_as(page, USERNAME)).to_be_visible()
    assert get_user_model().objects.filter(username=USERNAME).exists()
    snap(page, "signed-up-and-logged-in")

    log_out(page)
    expect(page).to_have_url(HOME)
    expect(page.locator("header .account-menu .who")).to_have_count(0)
    expect(page.locator("header .account-menu a[href*='/accounts/login/']")).to_be_visible()
    snap(page, "logged-out")

    page.locator("header .account-menu a[href*='/accounts/login/']").click()
    expect(page).to_have_url(LOGIN_PAGE)
    fill_log_in(page, USERNAME, "not-my-password")
    # The form is shown again, with allauth's message in Georgian, and nobody is logged in.
    error = page.locator("main form .errorlist")
    expect(error).to_have_text(wrong_password_message("ka"))
    expect(error).to_be_visible()
    expect(page.locator("main form input[name=login]")).to_have_value(USERNAME)
    expect(page.locator("header .account-menu .who")).to_have_count(0)
    snap(page, "wrong-password-refused")

    fill_log_in(page, USERNAME, PASSWORD)
    expect(page).to_have_url(HOME)
    expect(logged_in_as(page, USERNAME)).to_be_visible()
    snap(page, "logged-in-again")


def test_the_log_in_form_and_its_error_fit_a_phone(new_person, snap):
    get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    phone = new_person("phone", locale="ru-RU", **PHONE)
    phone.goto("/ru/accounts/login/")
    expect(phone.locator("html")).to_have_attribute("lang", "ru")
    assert_nothing_cut_off(phone)
    snap(phone, "log-in-form-phone")

    fill_log_in(phone, USERNAME, "not-my-password")
    expect(phone.locator("main form .errorlist")).to_have_text(wrong_password_message("ru"))
    assert_nothing_cut_off(phone)
    snap(phone, "wrong-password-phone")

    fill_log_in(phone, USERNAME, PASSWORD)
    expect(logged_in_as(phone, USERNAME)).to_be_visible()
    assert_nothing_cut_off(phone)
    snap(phone, "logged-in-phone")
