// SPDX-License-Identifier: MIT
// The window's application: an exception that escapes an event handler is shown and the event loop goes on.
#include "GuardedApplication.h"
#include "dpu/Error.h"
#include "dpu/InternalCheck.h"
#include <QEvent>
#include <QTimer>
#include <QtTest/QtTest>
#include <new>

namespace {

/// Throws from its event handler what the test asks for, as a broken slot would.
class Thrower : public QObject {
public:
    enum class What { Defect, UserError, BadAlloc };
    What what = What::Defect;

protected:
    bool event(QEvent* e) override
    {
        if (e->type() != QEvent::User)
            return QObject::event(e);
        if (what == What::Defect)
            DPU_INTERNAL_CHECK(false, "a test's broken invariant");
        if (what == What::UserError)
            throw dpu::Error("plan.json: k: expected a ratio in (0, 1]");
        throw std::bad_alloc();
    }
};

} // namespace

class TestUiGuard : public QObject {
    Q_OBJECT
    QStringList reported_;

private Q_SLOTS:
    void initTestCase()
    {
        dpu::ui::GuardedApplication::setReporter([this](const QString& text) { reported_ << text; });
    }

    void escapedExceptionsAreReportedNotFatal()
    {
        Thrower t;
        QEvent defect(QEvent::User);
        QCoreApplication::sendEvent(&t, &defect); // through notify(), as the event loop delivers it
        QCOMPARE(reported_.size(), 1);
        QVERIFY2(reported_[0].startsWith(QStringLiteral("internal error: tests/ui/test_ui_guard.cpp:")) &&
                     reported_[0].contains(QStringLiteral("a test's broken invariant")) &&
                     reported_[0].contains(QStringLiteral("please report it")),
                 qPrintable(reported_[0]));
        t.what = Thrower::What::UserError;
        QEvent userError(QEvent::User);
        QCoreApplication::sendEvent(&t, &userError);
        QCOMPARE(reported_.last(), QStringLiteral("plan.json: k: expected a ratio in (0, 1]"));
        // From the event loop itself (a timer's slot), and the loop goes on afterwards.
        t.what = Thrower::What::BadAlloc;
        QCoreApplication::postEvent(&t, new QEvent(QEvent::User));
        bool after = false;
        QTimer::singleShot(0, [&after] { after = true; });
        QTRY_VERIFY(after);
        QCOMPARE(reported_.size(), 3);
        QVERIFY2(reported_.last().contains(QStringLiteral("bad_alloc")) || reported_.last().contains(QStringLiteral("allocation")),
                 qPrintable(reported_.last()));
    }
};

int main(int argc, char** argv)
{
    dpu::ui::GuardedApplication app(argc, argv); // the application under test, not QTest's own
    TestUiGuard test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "test_ui_guard.moc"
